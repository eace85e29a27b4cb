package domsnap

import (
	"strings"
	"testing"
)

// TestInertLeavesNothingLive feeds a page's serialization holding each way HTML runs or
// goes somewhere on its own (a link that preconnects or prefetches included) and checks that the copy keeps the page's text, fields and
// styles and none of those ways; a secret is masked in text and attributes alike.
func TestInertLeavesNothingLive(t *testing.T) {
	src := `<!DOCTYPE html><html><head><base href="http://evil.test/"><meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=http://evil.test/r"><style>p{color:red}</style>
<link rel="preconnect" href="http://evil.test/"><link rel=" DNS-Prefetch " href="//evil.test">
<link rel="prefetch" href="http://evil.test/p"><link rel="preload" as="image" href="http://evil.test/i.png">
<link rel="modulepreload" href="http://evil.test/m.js"><link rel="prerender" href="http://evil.test/r">
<link rel="icon preconnect" href="http://evil.test/favicon.ico"><link rel="stylesheet" href="s.css">
<script>window.pwned=1</script><noscript>scripts are off</noscript></head>
<body onload="go()"><p class="lead">Reservation saved</p>
<img src="x.png" onerror="window.pwned=2"><a href=" jav&#x09;ascript:alert(1)">link</a>
<a href="/rooms">rooms</a><iframe src="http://evil.test/f" srcdoc="<script>1</script>" title="ad"></iframe>
<svg><script>alert(1)</script><a xlink:href="javascript:alert(2)"><text>t</text></a></svg>
<object data="x.swf"></object><embed src="x.swf">
<form action="javascript:alert(3)"><input name="title" value="Standup"><input name="key" value="s3cret-key">
<button formaction="JAVASCRIPT:alert(4)">Save</button></form><p>typed s3cret-key here</p></body></html>`
	out, err := Inert(src, []string{"s3cret-key"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ToLower(string(out))
	for _, gone := range []string{"<script", "pwned", "onerror", "onload", "javascript", "<base", "refresh", "evil.test", "<noscript", "<object", "<embed", "srcdoc", "s3cret"} {
		if strings.Contains(got, gone) {
			t.Errorf("the copy still holds %q:\n%s", gone, out)
		}
	}
	for _, kept := range []string{"<!doctype html>", `<meta charset="utf-8"/>`, "p{color:red}", `<p class="lead">reservation saved</p>`, `<img src="x.png"/>`, `<a href="/rooms">rooms</a>`, `<iframe title="ad"></iframe>`, `value="standup"`, "typed •••••• here", `value="••••••"`, "<button>save</button>", `<link rel="stylesheet" href="s.css"/>`} {
		if !strings.Contains(got, kept) {
			t.Errorf("the copy lost %q:\n%s", kept, out)
		}
	}
}
