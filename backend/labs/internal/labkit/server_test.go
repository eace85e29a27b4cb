package labkit

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServeOnAHost serves a lab on 127.0.0.2, which Linux routes to loopback like 127.0.0.1:
// it listens there and advertises that address; wildcards and ports are refused as hosts.
func TestServeOnAHost(t *testing.T) {
	s, err := Serve("test lab", "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "here") }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "http://127.0.0.2:") || !strings.HasSuffix(s.URL(), "/") {
		t.Fatalf("the lab advertises %s, want http://127.0.0.2:PORT/", s.URL())
	}
	res, err := http.Get(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "here" {
		t.Errorf("the lab answered %q", body)
	}
	def, err := Serve("test lab", "", http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	defer def.Close()
	if !strings.HasPrefix(def.URL(), "http://127.0.0.1:") {
		t.Errorf("with no host the lab advertises %s, want 127.0.0.1", def.URL())
	}
	for host, want := range map[string]string{"0.0.0.0": "wildcard", "::": "wildcard", "127.0.0.2:80": "without a port", "a b": "without a port"} {
		if err := CheckHost(host); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckHost(%q) = %v, want %q", host, err, want)
		}
	}
	for _, host := range []string{"127.0.0.2", "::1", "lab.internal"} {
		if err := CheckHost(host); err != nil {
			t.Errorf("CheckHost(%q) = %v, want it accepted", host, err)
		}
	}
}
