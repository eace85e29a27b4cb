// Package httpapi serves the app's services to an ordinary browser: POST /api/<Service>/<Method>
// with a JSON array of arguments calls the same Go method the desktop binds into Wails, a
// WebSocket at /api/events carries the same events, and the built frontend and run media are
// served beside them. It listens on loopback only.
package httpapi
