package mcpserver

import (
	"strings"

	"observatory/backend/agent"
)

// A snapshot shows the page's frames and repeated controls as a tree: an iframe's content
// nested under its line, with refs of its own ("f1e3"), and a table's rows each with the
// same "Delete" button. A ref names exactly one element of that tree; its target must name
// that element alone too, as the harness finds and records it: within its frame, and within
// the row or named region, dialog or group that tells it from its twins, else within the
// nearest element that holds it and none of them, by that element's ref. A container is named
// only as the browser names it (its accessible name), never by text the snapshot shows under
// it, which the browser may read otherwise (an image's alt, hidden text).

// maxContainerNames bounds the names of a row's cells tried as the row's name.
const maxContainerNames = 8

// node is one line of a snapshot that carries a ref: its element, its ref, its parent's
// index (-1 at the top), the index of the iframe it is inside (-1 for the page), and the
// lines nested under it, whose names and text make an unnamed row's text (see text).
type node struct {
	el     element
	ref    string
	parent int
	frame  int
	under  []string
}

// text is the names and text of the lines nested under n, lower case; read only when asked,
// since the nodes near the top hold most of the page.
func (n node) text() string {
	var b strings.Builder
	for _, line := range n.under {
		if l, ok := readLine(line); ok {
			b.WriteString(" ")
			b.WriteString(strings.ToLower(strings.TrimSpace(l.el.Name + " " + l.value)))
		}
	}
	return b.String()
}

// snapshotTree reads the ref-carrying lines of a snapshot with their nesting.
func snapshotTree(snap string) []node {
	var lines []string
	for line := range strings.Lines(snap) {
		lines = append(lines, line)
	}
	var nodes []node
	var open, indents, starts []int // the nodes enclosing the line read, with their indents and lines
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
		l, ok := readLine(line)
		if !ok || l.ref == "" {
			continue
		}
		n := node{el: l.el, ref: l.ref, parent: -1, frame: -1}
		if len(open) > 0 {
			n.parent = open[len(open)-1]
			p := nodes[n.parent]
			n.frame = p.frame
			if p.el.Role == "iframe" {
				n.frame = n.parent
			}
		}
		nodes = append(nodes, n)
		open, indents, starts = append(open, len(nodes)-1), append(indents, depth), append(starts, at)
	}
	closeTo(-1, len(lines))
	return nodes
}

// framePath is the refs of the iframes node i is inside, outermost first.
func framePath(nodes []node, i int) []string {
	var path []string
	for f := nodes[i].frame; f >= 0; f = nodes[f].frame {
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
		if o.el == nodes[i].el && o.frame == nodes[i].frame && (anc < 0 || inside(nodes, j, anc)) {
			n++
		}
	}
	return n
}

// container is the nearest ancestor of node i, in its frame, that tells it from the elements
// of its role and name there: one under which node i's element is the only one, named by a
// name that no other element of its role in the frame has (a role container's name is
// matched as a part, in any case). A named ancestor (a dialog, region, group, row) goes by
// its name, an unnamed row by the name of one of its cells. False when none does.
func container(nodes []node, i int) (agent.Container, bool) {
	for a := nodes[i].parent; a >= 0 && a != nodes[i].frame; a = nodes[a].parent {
		if twins(nodes, i, a) != 1 {
			continue
		}
		for _, name := range containerNames(nodes, a, i) {
			if mentions(nodes, a, name) == 1 {
				return agent.Container{Role: nodes[a].el.Role, Name: name}, true
			}
		}
	}
	return agent.Container{}, false
}

// containerNames are the names that may name node a as a container of node i: its own, else,
// for a row, the names of at most maxContainerNames cells under it but those holding node i.
func containerNames(nodes []node, a, i int) []string {
	if nodes[a].el.Name != "" {
		return []string{nodes[a].el.Name}
	}
	if nodes[a].el.Role != "row" {
		return nil
	}
	var names []string
	for j := a + 1; j < len(nodes) && len(names) < maxContainerNames && inside(nodes, j, a); j++ {
		if o := nodes[j]; o.el.Name != "" && (o.el.Role == "cell" || o.el.Role == "gridcell" || o.el.Role == "rowheader") && !inside(nodes, i, j) {
			names = append(names, o.el.Name)
		}
	}
	return names
}

// mentions counts the nodes of node a's role in its frame whose name (an unnamed row's: its
// text) contains name, as a role container's name is matched: in any case.
func mentions(nodes []node, a int, name string) int {
	n, want := 0, strings.ToLower(name)
	for _, o := range nodes {
		if o.el.Role != nodes[a].el.Role || o.frame != nodes[a].frame {
			continue
		}
		got := strings.ToLower(o.el.Name)
		if got == "" {
			got = o.text()
		}
		if strings.Contains(got, want) {
			n++
		}
	}
	return n
}

// soleHolder is the nearest ancestor of node i, in its frame, under which node i's element is
// the only one; -1 when none is.
func soleHolder(nodes []node, i int) int {
	for a := nodes[i].parent; a >= 0 && a != nodes[i].frame; a = nodes[a].parent {
		if twins(nodes, i, a) == 1 {
			return a
		}
	}
	return -1
}
