// Package netguard knows the hosts no task may reach unless the user allows it: link-local
// and cloud-metadata addresses and names, where a cloud machine serves its credentials to
// whoever asks. LinkLocal judges a name or an address as a task file writes it; Control
// refuses such an address as a connection to it is about to be made.
package netguard
