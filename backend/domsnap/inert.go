// Package domsnap makes a page's DOM, as a browser serialized it, into a static copy that can
// be stored and shown without running or loading anything: its scripts, event handlers,
// script URLs, frames' sources, base address, automatic refreshes and the links that open a
// connection on their own (preconnect, prefetch…) removed, and the secret values it is given
// masked.
package domsnap

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"observatory/backend/agent"
)

// dropped are the elements a static copy leaves out whole: what runs (scripts, plugins),
// what only shows when scripts are off, and what sets the address relative URLs resolve
// against.
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Noscript: true, atom.Object: true, atom.Embed: true,
	atom.Applet: true, atom.Base: true,
}

// fetching are the link relations that make a browser connect or fetch as soon as the link
// is in a document, with nothing shown: a copy that kept one would reach its host each time
// it is shown.
var fetching = []string{"preconnect", "dns-prefetch", "prefetch", "preload", "modulepreload", "prerender", "next", "subresource"}

// Inert parses src, HTML text as a browser serialized a document, and returns it as a
// static copy: without the elements in dropped, a <meta http-equiv> (a refresh, a cookie), a
// <link> of a relation in fetching,
// any on… attribute, an attribute whose value is a javascript: or vbscript: URL, and a
// frame's src and srcdoc (the frame stays, empty); every secret value in text or attributes
// masked. Relative URLs stay as they are, so nothing they name is fetched where the copy is
// shown without a base address.
func Inert(src string, secrets []string) ([]byte, error) {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("parse the page's DOM: %w", err)
	}
	clean(doc, secrets)
	var out bytes.Buffer
	if err := html.Render(&out, doc); err != nil {
		return nil, fmt.Errorf("write the page's DOM: %w", err)
	}
	return out.Bytes(), nil
}

// clean strips n's subtree in place.
func clean(n *html.Node, secrets []string) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (dropped[c.DataAtom] || c.DataAtom == atom.Meta && has(c, "http-equiv") ||
			c.DataAtom == atom.Link && fetches(c)) {
			n.RemoveChild(c)
		} else {
			clean(c, secrets)
		}
		c = next
	}
	switch n.Type {
	case html.TextNode, html.CommentNode:
		n.Data = mask(n.Data, secrets)
	case html.ElementNode:
		frame := n.DataAtom == atom.Iframe || n.DataAtom == atom.Frame
		kept := n.Attr[:0]
		for _, a := range n.Attr {
			key := strings.ToLower(a.Key)
			if strings.HasPrefix(key, "on") || scriptURL(a.Val) || frame && (key == "src" || key == "srcdoc") {
				continue
			}
			a.Val = mask(a.Val, secrets)
			kept = append(kept, a)
		}
		n.Attr = kept
	}
}

// has reports whether element n has an attribute named key.
func has(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

// fetches reports whether link element n has a relation in fetching; rel is a list of
// tokens, in any letter case.
func fetches(n *html.Node) bool {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, "rel") && slices.ContainsFunc(strings.Fields(strings.ToLower(a.Val)), func(r string) bool {
			return slices.Contains(fetching, r)
		}) {
			return true
		}
	}
	return false
}

// scriptURL reports whether v, as a browser reads a URL, is a javascript: or vbscript: one:
// browsers skip the whitespace and control characters around and inside a scheme.
func scriptURL(v string) bool {
	v = strings.ToLower(strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		return r
	}, v))
	return strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:")
}

// mask replaces every secret value in v by agent.Mask.
func mask(v string, secrets []string) string {
	for _, s := range secrets {
		if s != "" && strings.Contains(v, s) {
			v = strings.ReplaceAll(v, s, agent.Mask)
		}
	}
	return v
}
