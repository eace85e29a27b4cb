package bundle

import "bufio"

// Sniff reports whether r starts with a zip archive's signature, as a bundle does, without
// consuming anything: the bytes stay buffered in r for whoever reads it next, so that a pipe
// such as /dev/stdin, which cannot rewind, can be told apart and still be read whole.
func Sniff(r *bufio.Reader) bool {
	sig, err := r.Peek(4)
	return err == nil && string(sig) == "PK\x03\x04"
}
