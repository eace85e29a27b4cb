package domsnap

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzInertStaysInert checks that whatever markup comes in, the copy, read again as a browser
// reads it with scripts on or off (a frame without scripts reads <noscript> as markup), holds
// no dropped element, no handler, no script URL and no refresh.
func FuzzInertStaysInert(f *testing.F) {
	for _, seed := range []string{
		`<script>alert(1)</script>`,
		`<img src=x onerror=alert(1)>`,
		`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
		`<svg><style><img src=x onerror=alert(1)></style></svg>`,
		`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
		`<a href="&#x6A;avascript:alert(1)">x</a>`,
		`<meta http-equiv=refresh content="0;url=javascript:alert(1)">`,
		`<template shadowrootmode=open><script>1</script></template>`,
		`<textarea></textarea><script>1</script></textarea>`,
		`<iframe srcdoc="<script>1</script>"></iframe>`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Inert(src, nil)
		if err != nil {
			return
		}
		for _, scripting := range []bool{true, false} {
			doc, err := html.ParseWithOptions(strings.NewReader(string(out)), html.ParseOptionEnableScripting(scripting))
			if err != nil {
				t.Fatalf("the copy does not parse: %v", err)
			}
			if live := liveNode(doc); live != "" {
				t.Fatalf("the copy of %q, read with scripting %v, holds %s:\n%s", src, scripting, live, out)
			}
		}
	})
}

// liveNode names the first thing in n's tree that could run or go somewhere, "" for none.
func liveNode(n *html.Node) string {
	if n.Type == html.ElementNode {
		if dropped[n.DataAtom] || n.Data == "script" {
			return "<" + n.Data + ">"
		}
		for _, a := range n.Attr {
			switch {
			case strings.HasPrefix(strings.ToLower(a.Key), "on"):
				return "a handler " + a.Key
			case scriptURL(a.Val):
				return "a script URL in " + a.Key
			case n.Data == "meta" && strings.EqualFold(a.Key, "http-equiv"):
				return "a meta http-equiv"
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if live := liveNode(c); live != "" {
			return live
		}
	}
	return ""
}
