// Package labkit is what every lab server shares: an authoritative store kept as an ordered
// event log behind the lab's own transition function, and an HTTP server on 127.0.0.1 that
// counts the requests it is handling so a runner can wait for it to quiesce.
package labkit
