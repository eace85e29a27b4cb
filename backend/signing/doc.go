// Package signing signs and checks run files: an Ed25519 signature in a DSSE envelope
// (payload type application/vnd.in-toto+json) around an in-toto Statement v1 whose subjects
// are the run file's and every media file's SHA-256 and whose predicate summarises the run.
//
// A signature proves that the holder of a key signed these bytes; it says nothing of when
// the run happened or whether the machine that recorded it was honest. The package is pure:
// keys are given to it (see app's signing keys for where they are kept), and the bytes it
// checks are read by the caller.
package signing
