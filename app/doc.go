// Package app holds the services the user interface calls, one per concern: Runs (start,
// stop, history, replay), Files (run files in and out), Settings and Session. The desktop
// binds them into Wails; `observatory serve` exposes the very same values over HTTP and a
// WebSocket (package httpapi). Progress reaches the UI through one Emitter, so tests use a
// recording fake.
package app
