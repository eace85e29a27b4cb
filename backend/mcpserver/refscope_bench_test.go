package mcpserver

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkResolveRefInABigTable resolves the last Delete of a 5,000-row table's snapshot
// (20,000 refs, 0.8 MB): the cost of telling one repeated control from its twins, paid on
// every action by ref. Reading each node's text as it was nested, by appending, made it 2.8 s.
func BenchmarkResolveRefInABigTable(b *testing.B) {
	var s strings.Builder
	s.WriteString("- main [ref=e1]:\n  - table [ref=e2]:\n")
	const rows = 5000
	for i := range rows {
		fmt.Fprintf(&s, "    - row \"Person %d Delete\" [ref=e%d]:\n      - cell \"Person %d\" [ref=e%d]\n      - cell \"Delete\" [ref=e%d]:\n        - button \"Delete\" [ref=e%d]\n",
			i, 10+4*i, i, 11+4*i, 12+4*i, 13+4*i)
	}
	snap := s.String()
	refs := snapshotRefs(snap)
	last := fmt.Sprintf("e%d", 13+4*(rows-1))
	for b.Loop() {
		t, _, err := resolveRef(last, refs, snap, nil)
		if err != nil || t.Within.Name != fmt.Sprintf("Person %d Delete", rows-1) {
			b.Fatalf("got %+v, %v", t, err)
		}
	}
}

// BenchmarkResolveRefAmongManyLinks resolves one of two Delete buttons in a generic that also
// holds 4,000 named links, each in a generic of its own: a container is named only by its own
// name or a row's cells, so the links are never tried as names (trying each took minutes).
func BenchmarkResolveRefAmongManyLinks(b *testing.B) {
	var s strings.Builder
	s.WriteString("- main [ref=e1]:\n  - generic [ref=e2]:\n    - button \"Delete\" [ref=e3]\n")
	for i := range 4000 {
		fmt.Fprintf(&s, "    - generic [ref=e%d]:\n      - link \"Item %d\" [ref=e%d]\n", 10+2*i, i, 11+2*i)
	}
	s.WriteString("  - button \"Delete\" [ref=e9]\n")
	snap := s.String()
	refs := snapshotRefs(snap)
	for b.Loop() {
		t, _, err := resolveRef("e3", refs, snap, nil)
		if err != nil || t.Within.CSS != "aria-ref=e2" {
			b.Fatalf("got %+v, %v", t, err)
		}
	}
}
