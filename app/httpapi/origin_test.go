package httpapi

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestOtherOriginsAreRefused: a page on another port of 127.0.0.1 is the same site, so the
// SameSite=Strict cookie goes with its requests; Fetch Metadata and Origin tell them apart.
func TestOtherOriginsAreRefused(t *testing.T) {
	f := newFixture(t)
	u, err := url.Parse(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	otherPort := "http://" + u.Hostname() + ":1"
	ready := f.srv.URL + "/api/Session/Ready"
	media := f.srv.URL + "/media/x/y.jpg"
	with := func(r *http.Request, kv ...string) func() *http.Request {
		return func() *http.Request {
			for i := 0; i < len(kv); i += 2 {
				r.Header.Set(kv[i], kv[i+1])
			}
			return r
		}
	}
	tests := []struct {
		name string
		req  func() *http.Request
		want int
	}{
		{"our own page's call", with(jsonPost(ready, "[]"), "Sec-Fetch-Site", "same-origin", "Origin", f.srv.URL), http.StatusOK},
		{"the user opening the address", with(get(f.srv.URL+"/"), "Sec-Fetch-Site", "none"), http.StatusOK},
		{"a client that is not a browser", with(get(f.srv.URL + "/")), http.StatusOK},
		{"media from another port", with(get(media), "Sec-Fetch-Site", "same-site", "Sec-Fetch-Dest", "image"), http.StatusForbidden},
		{"media from another site", with(get(media), "Sec-Fetch-Site", "cross-site"), http.StatusForbidden},
		{"the page from another port", with(get(f.srv.URL+"/"), "Sec-Fetch-Site", "same-site"), http.StatusForbidden},
		{"a call from another port", with(jsonPost(ready, "[]"), "Sec-Fetch-Site", "same-site", "Origin", otherPort), http.StatusForbidden},
		{"a call from another port, no Fetch Metadata", with(jsonPost(ready, "[]"), "Origin", otherPort), http.StatusForbidden},
		{"a call from localhost to 127.0.0.1", with(jsonPost(ready, "[]"), "Origin", "http://localhost:"+u.Port()), http.StatusForbidden},
		{"an opaque origin", with(jsonPost(ready, "[]"), "Origin", "null"), http.StatusForbidden},
		{"the token address from another port", with(get(f.srv.URL+"/?token="+f.token), "Sec-Fetch-Site", "same-site"), http.StatusForbidden},
	}
	for _, tt := range tests {
		resp, err := f.client.Do(tt.req())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
}

func TestTheTokenRedirectStaysOnThisServer(t *testing.T) {
	f := newFixture(t)
	tests := []struct{ target, want string }{
		{"//evil.example/x", "/evil.example/x"},
		{"///evil.example", "/evil.example"},
		{"/%2F%2Fevil.example/x", "/evil.example/x"},
		{`/\evil.example`, "/%5Cevil.example"},
		{"/a/../../b/", "/b/"},
		{"/runs?x=1", "/runs?x=1"},
	}
	for _, tt := range tests {
		sep := "?"
		if strings.Contains(tt.target, "?") {
			sep = "&"
		}
		resp := rawGet(t, f.srv.Listener.Addr().String(), tt.target+sep+"token="+f.token)
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != tt.want {
			t.Errorf("GET %s: status %d to %q, want a redirect to %q", tt.target, resp.StatusCode, loc, tt.want)
		}
	}
}

// rawGet sends "GET target" to addr exactly as written (Go's client would turn a target
// starting with "//" into another host) and reads the response.
func rawGet(t *testing.T, addr, target string) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
