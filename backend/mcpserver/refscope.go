package mcpserver

import (
	"encoding/json"
	"slices"
	"strings"

	"observatory/backend/agent"
)

// A snapshot shows the page's frames and repeated controls as a tree: an iframe's content
// nested under its line, with refs of its own ("f1e3"), and a table's rows each with the
// same "Delete" button. A ref names exactly one element of that tree; its target must name
// that element alone too, as the harness finds and records it: within its frame, and within
// the row (or named region, dialog, group, or list item by its text) that tells it from its
// twins, else within the nearest element that holds it and none of them.

// node is one line of a snapshot that carries a ref: its element, its ref, its parent's
// index (-1 at the top), and the lines nested under it, whose names and text make a row's
// accessible name (see text).
type node struct {
	el     element
	ref    string
	parent int
	under  []string
}

// text is the names and text of the lines nested under n, lower case; read only when asked,
// since the nodes near the top hold most of the page.
func (n node) text() string {
	var b strings.Builder
	for _, line := range n.under {
		b.WriteString(" ")
		b.WriteString(strings.ToLower(lineText(line)))
	}
	return b.String()
}

// snapshotTree reads the ref-carrying lines of a snapshot with their nesting.
func snapshotTree(snap string) []node {
	lines := slices.Collect(strings.Lines(snap))
	var nodes []node
	var open []int // the nodes enclosing the line read, with their indents and lines
	var indents, starts []int
	closeTo := func(depth, at int) {
		for len(open) > 0 && indents[len(indents)-1] >= depth {
			last := len(open) - 1
			nodes[open[last]].under = lines[starts[last]+1 : at]
			open, indents, starts = open[:last], indents[:last], starts[:last]
		}
	}
	for at, line := range lines {
		depth := len(line) - len(strings.TrimLeft(line, " "))
		closeTo(depth, at)
		m := snapshotLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		parent := -1
		if len(open) > 0 {
			parent = open[len(open)-1]
		}
		nodes = append(nodes, node{el: lineElement(m), ref: m[3], parent: parent})
		open, indents, starts = append(open, len(nodes)-1), append(indents, depth), append(starts, at)
	}
	closeTo(-1, len(lines))
	return nodes
}

// lineText is what a snapshot line says in words: its quoted name, or the text after its
// first ": " ("- text: Bob", "- cell: Bob").
func lineText(line string) string {
	if m := snapshotLine.FindStringSubmatch(line); m != nil {
		return lineElement(m).Name
	}
	_, after, _ := strings.Cut(strings.TrimSpace(line), ": ")
	return strings.Trim(after, `"`)
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

// inside reports whether node i is nested under node anc.
func inside(nodes []node, i, anc int) bool {
	for p := nodes[i].parent; p >= 0; p = nodes[p].parent {
		if p == anc {
			return true
		}
	}
	return false
}

// twins counts the nodes in the frame of node i, under anc when anc is not -1, whose element
// is node i's.
func twins(nodes []node, i, anc int) int {
	n := 0
	for j, o := range nodes {
		if o.el == nodes[i].el && frameOf(nodes, j) == frameOf(nodes, i) && (anc < 0 || inside(nodes, j, anc)) {
			n++
		}
	}
	return n
}

// container is the nearest ancestor of node i, in its frame, that tells it from the elements
// of its role and name there: one under which node i's element is the only one, named by a
// name that no other element of its role in the frame has (a role container's name is
// matched as a part, in any case). A named ancestor (a dialog, region, group) goes by its
// name, a row by the name of one of its cells (a row's accessible name is its cells' text),
// and an unnamed one (a list item, an article) by the text of one of the elements under it,
// as its role filtered by that text. False when none does.
func container(nodes []node, i int) (agent.Container, bool) {
	frame := frameOf(nodes, i)
	for a := nodes[i].parent; a >= 0 && a != frame; a = nodes[a].parent {
		if twins(nodes, i, a) != 1 {
			continue
		}
		role := nodes[a].el.Role
		for _, name := range containerNames(nodes, a, i) {
			switch {
			case mentions(nodes, a, name) != 1:
			case nodes[a].el.Name != "" || role == "row":
				return agent.Container{Role: role, Name: name}, true
			default:
				quoted, _ := json.Marshal(name)
				return agent.Container{CSS: "internal:role=" + role + " >> internal:has-text=" + string(quoted) + "i"}, true
			}
		}
	}
	return agent.Container{}, false
}

// containerNames are the names that may name node a as a container of node i: its own, else
// the names of the elements under it but node i and those holding it.
func containerNames(nodes []node, a, i int) []string {
	if nodes[a].el.Name != "" {
		return []string{nodes[a].el.Name}
	}
	var names []string
	for j, o := range nodes {
		if o.el.Name != "" && j != i && inside(nodes, j, a) && !inside(nodes, i, j) {
			names = append(names, o.el.Name)
		}
	}
	return names
}

// mentions counts the nodes of node a's role in its frame whose name (a row's: its text)
// contains name, as a role container's name is matched: in any case.
func mentions(nodes []node, a int, name string) int {
	n, want := 0, strings.ToLower(name)
	for j, o := range nodes {
		if o.el.Role != nodes[a].el.Role || frameOf(nodes, j) != frameOf(nodes, a) {
			continue
		}
		name := o.el.Name
		if name == "" {
			name = o.text()
		}
		if strings.Contains(strings.ToLower(name), want) {
			n++
		}
	}
	return n
}

// soleHolder is the nearest ancestor of node i, in its frame, under which node i's element is
// the only one; -1 when none is.
func soleHolder(nodes []node, i int) int {
	frame := frameOf(nodes, i)
	for a := nodes[i].parent; a >= 0 && a != frame; a = nodes[a].parent {
		if twins(nodes, i, a) == 1 {
			return a
		}
	}
	return -1
}
