package mcpserver

import "strings"

// A snapshot shows the page's frames as a tree: an iframe's content nested under its line,
// with refs of its own ("f1e3"). A ref names exactly one element of that tree; its target
// must name that element alone too, as the harness finds and records it: within its frame.

// node is one line of a snapshot that carries a ref: its element, its ref, and its parent's
// index (-1 at the top).
type node struct {
	el     element
	ref    string
	parent int
}

// snapshotTree reads the ref-carrying lines of a snapshot with their nesting.
func snapshotTree(snap string) []node {
	var nodes []node
	var open []int // the nodes enclosing the line read, with their indents
	var indents []int
	for line := range strings.Lines(snap) {
		depth := len(line) - len(strings.TrimLeft(line, " "))
		for len(open) > 0 && indents[len(indents)-1] >= depth {
			open, indents = open[:len(open)-1], indents[:len(indents)-1]
		}
		m := snapshotLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		parent := -1
		if len(open) > 0 {
			parent = open[len(open)-1]
		}
		nodes = append(nodes, node{el: lineElement(m), ref: m[3], parent: parent})
		open, indents = append(open, len(nodes)-1), append(indents, depth)
	}
	return nodes
}

// frameOf is the index of the iframe node i is inside, -1 for the page itself.
func frameOf(nodes []node, i int) int {
	for p := nodes[i].parent; p >= 0; p = nodes[p].parent {
		if nodes[p].el.Role == "iframe" {
			return p
		}
	}
	return -1
}

// framePath is the refs of the iframes node i is inside, outermost first.
func framePath(nodes []node, i int) []string {
	var path []string
	for f := frameOf(nodes, i); f >= 0; f = frameOf(nodes, f) {
		path = append([]string{nodes[f].ref}, path...)
	}
	return path
}

// twins counts the nodes in the frame of node i whose element is node i's.
func twins(nodes []node, i int) int {
	n := 0
	for j, o := range nodes {
		if o.el == nodes[i].el && frameOf(nodes, j) == frameOf(nodes, i) {
			n++
		}
	}
	return n
}
