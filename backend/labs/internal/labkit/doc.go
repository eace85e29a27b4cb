// Package labkit is what every lab shares, so that a lab declares only what differs: its
// state and transition function, its gate, its faults, its handlers and its page.
//
//   - Rules are a lab's pure parts; replaying, framing and judging its attempts follow from
//     them (rules.go, replay.go, events.go).
//   - Spec is what a lab declares, and Lab the suite made from it: its task, attempts, launch
//     with the latency parameter, and the environment an attempt runs against (lab.go,
//     environment.go).
//   - App is one running copy of a lab's app: an authoritative store kept as an ordered event
//     log behind the lab's transition function (store.go), and an HTTP server on 127.0.0.1
//     that counts the requests it is handling so a runner can wait for it to quiesce
//     (server.go), with the gate checked on its state now (app.go).
//   - Site is a lab's page in the layout every lab shares, its assets, and lab.js, the
//     script that posts the page's events in order (site.go, site/).
package labkit
