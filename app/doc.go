// Package app holds the services the user interface calls, one per concern: Tasks (what there
// is to run), Runs (start and stop), History (the stored runs: read, replay, delete, retention),
// Analysis (metrics, ledgers, comparisons), Files (exports through one table of formats, and
// imports), Settings, Session, Approvals and Browsers. The desktop
// binds them into Wails; `observatory serve` exposes the very same values over HTTP and a
// WebSocket (package httpapi). Progress reaches the UI through one Emitter, so tests use a
// recording fake.
package app
