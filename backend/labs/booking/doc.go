// Package booking is the "Lab reservations" lab: a small web app served by Go on 127.0.0.1
// with a reservation dialog, a room picker and a table of committed reservations, plus the
// fault modes, the scripted attempts and the completion gate written for its one task.
//
// Every app event is logged in order, by the page (dialog, fields, notice, alert) or by the
// server (save requested, committed, completed, refused, cancelled). Apply is the one
// transition function over those events: the live server appends an event only after Apply
// accepts it, and Rebuild replays a recorded log through the same function, so the state the
// gate reads live and the state it reads on import are computed the same way.
package booking
