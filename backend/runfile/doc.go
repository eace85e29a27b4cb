// Package runfile writes and reads run files, the JSON documents users share to debug runs
// together (format observatory.run/v1, documented in docs/runfile.md). A run file can come
// from a stranger, so Decode refuses anything malformed with an Error that says what is wrong
// and where, and Replay never believes a recorded verdict: it replays every attempt's events
// through the lab's transition function, recomputes every verdict and reports each
// disagreement.
package runfile
