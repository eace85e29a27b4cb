// Package cdntest serves a stand-in for Playwright's download host on 127.0.0.1, for tests of
// the browser download: a real zip in the layout of Playwright's Chromium whose "chrome" is a
// script that runs Debian's Chromium. It imports nothing of Observatory's, so the browser
// package's own tests can use it.
package cdntest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"testing"

	"observatory/backend/browser/browsertest/policy"
)

// ChromiumZip is a zip holding, at exe (the executable's path inside the zip, such as
// chrome-linux64/chrome), a script that appends a line to marker and runs Debian's Chromium
// with its arguments, and padding bytes of filler beside it, to watch a download progress.
// It skips the test off Linux and fails or skips it (see policy) without Debian's Chromium.
func ChromiumZip(tb testing.TB, exe, marker string, padding int) []byte {
	tb.Helper()
	if runtime.GOOS != "linux" {
		tb.Skip("the stand-in Chromium is a shell script running Debian's: Linux only")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		policy.Unavailable(tb, fmt.Errorf("no Debian chromium on PATH for the stand-in Playwright Chromium to run: %w", err))
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, mode os.FileMode, data []byte) {
		h := &zip.FileHeader{Name: name, Method: zip.Store}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	add(exe, 0o755, fmt.Appendf(nil, "#!/bin/sh\necho launched >> %q\nexec %q \"$@\"\n", marker, chromium))
	add(exe+".filler", 0o644, bytes.Repeat([]byte{0x5a}, padding))
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Host is the stand-in download host. It serves its body at one path (anything else is 404),
// whole, or, while slow, half of it and then nothing until the client goes.
type Host struct {
	// URL is the host's address, for PLAYWRIGHT_DOWNLOAD_HOST.
	URL  string
	slow atomic.Bool
	// Requests counts the downloads asked for.
	Requests atomic.Int32
}

// Serve starts a Host serving body at path; it stops when tb ends.
func Serve(tb testing.TB, path string, body []byte) *Host {
	tb.Helper()
	h := &Host{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		h.Requests.Add(1)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		if !h.slow.Load() {
			_, _ = w.Write(body)
			return
		}
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	tb.Cleanup(srv.Close)
	h.URL = srv.URL
	return h
}

// Slow makes the host send half of the body and then hold the connection (true), or the
// whole body (false).
func (h *Host) Slow(slow bool) { h.slow.Store(slow) }
