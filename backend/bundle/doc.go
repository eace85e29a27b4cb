// Package bundle writes and reads shareable bundles: a .zip holding a run file (run.json,
// exactly what runfile.Encode writes) and the run's media under media/ (each attempt's video
// and every distinct screenshot its samples name). The format is documented in
// docs/runfile.md.
//
// A bundle can come from a stranger, so Import checks every entry of the archive before it
// writes anything, imports the run file through runfile (decode, replay, recompute) and only
// then extracts the media, under the imported run's fresh id.
package bundle
