// Package outbox is the "Outbox" lab: a message composer served by Go on 127.0.0.1 (To,
// Subject, Message, Send, and a Sent list) whose sends are irreversible, plus the fault modes,
// the scripted attempts and the completion gate written for its one task.
//
// Every send carries a client operation id, minted by the page for each Send and reused by
// its Retry, and the authoritative store keeps it with the message, so that a send whose
// response was lost can be looked up by that id (GET /api/messages?op_id=…) instead of being
// sent again blindly. A correct server commits an operation id once; the delivered-twice
// fault is the buggy server that stores two rows for one.
//
// As in the booking lab, every app event is logged in order, by the page (fields, the sent
// notice, a send it could not confirm) or by the server (received, committed, answered,
// response lost, dropped, cancelled, looked up). Apply is the one transition function over
// them, live and on replay.
package outbox
