package httpapi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/app"
)

// testLimits are short, so that the tests see each limit act.
var testLimits = Limits{ReadHeader: 300 * time.Millisecond, Idle: 400 * time.Millisecond, Stall: 400 * time.Millisecond}

// limited serves f's handler under testLimits on a server of its own, and returns its address
// and the session cookie a raw client sends.
func limited(t *testing.T, f *fixture) (addr, cookie string) {
	t.Helper()
	srv := httptest.NewUnstartedServer(f.h)
	srv.Config = f.h.Server(testLimits)
	srv.Start()
	t.Cleanup(srv.Close)
	u, _ := url.Parse(f.srv.URL)
	for _, c := range f.client.Jar.Cookies(u) {
		if c.Name == cookieName {
			cookie = c.String()
		}
	}
	if cookie == "" {
		t.Fatal("no session cookie")
	}
	return srv.Listener.Addr().String(), cookie
}

// dial opens a raw connection to addr, closed at the test's end.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedWithin fails unless the server closes c within d (any reply it sends first is read
// and returned).
func closedWithin(t *testing.T, c net.Conn, d time.Duration) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	got, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server held the connection open for %v", d)
	}
	return string(got)
}

// uploadHeader is the header of an upload of n bytes named name.
func uploadHeader(addr, cookie, name string, n int) string {
	return fmt.Sprintf("POST /upload/%s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", name, addr, cookie, n)
}

func TestAnIdleConnectionIsClosed(t *testing.T) {
	addr, cookie := limited(t, newFixture(t))
	c := dial(t, addr)
	fmt.Fprintf(c, "POST /api/Session/Ready HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]", addr, cookie)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the call: %v %v", resp, err)
	}
	resp.Body.Close()
	closedWithin(t, c, 5*time.Second) // kept alive, then idle past Limits.Idle
}

func TestAStalledHeaderIsCut(t *testing.T) {
	addr, _ := limited(t, newFixture(t))
	c := dial(t, addr)
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n", addr) // and never the blank line
	closedWithin(t, c, 5*time.Second)
}

// TestASlowUploadThatKeepsMovingIsImported sends a run file in pieces, each well within
// Limits.Stall of the last, over several times Limits.Stall in all: it is imported.
func TestASlowUploadThatKeepsMovingIsImported(t *testing.T) {
	f := newFixture(t)
	addr, cookie := limited(t, f)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "create-issue.run.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, addr)
	fmt.Fprint(c, uploadHeader(addr, cookie, "slow.run.json", len(data)))
	start, pieces := time.Now(), 12
	for i := range pieces {
		time.Sleep(testLimits.Stall / 4)
		if _, err := c.Write(data[i*len(data)/pieces : (i+1)*len(data)/pieces]); err != nil {
			t.Fatalf("the server cut a moving upload after %v: %v", time.Since(start), err)
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"result"`)) {
		t.Fatalf("the slow upload: %d %s", resp.StatusCode, body)
	}
	if d := time.Since(start); d < 2*testLimits.Stall {
		t.Fatalf("the upload took only %v: it proves nothing", d)
	}
}

// TestAStalledUploadIsCut sends part of an upload and stops: the server cuts it after
// Limits.Stall, and its temporary file goes.
func TestAStalledUploadIsCut(t *testing.T) {
	f := newFixture(t)
	addr, cookie := limited(t, f)
	c := dial(t, addr)
	fmt.Fprint(c, uploadHeader(addr, cookie, "stalled.zip", 1<<20))
	c.Write(bytes.Repeat([]byte("x"), 4096))
	reply := closedWithin(t, c, 5*time.Second)
	if strings.Contains(reply, "200 OK") {
		t.Fatalf("a stalled upload was answered OK: %s", reply)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		left, _ := filepath.Glob(filepath.Join(f.dataDir, "tmp", "upload-*"))
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stalled upload left %q", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestADownloadIsCutOnlyWhenItStalls serves a 32 MiB video: a client that reads it slowly,
// but always within Limits.Stall, gets all of it; one that stops reading is cut.
func TestADownloadIsCutOnlyWhenItStalls(t *testing.T) {
	const size = 32 << 20
	f := newFixture(t)
	runDir := filepath.Join(app.MediaRoot(f.dataDir), "run1")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runDir, "v.webm"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	addr, cookie := limited(t, f)
	get := func() (net.Conn, *http.Response) {
		c := dial(t, addr)
		fmt.Fprintf(c, "GET /media/run1/v.webm HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", addr, cookie)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("the download: %v %v", resp, err)
		}
		return c, resp
	}

	_, resp := get()
	start, got := time.Now(), 0
	for got < size {
		time.Sleep(testLimits.Stall / 4)
		n, err := io.ReadFull(resp.Body, make([]byte, min(2<<20, size-got)))
		got += n
		if err != nil {
			t.Fatalf("a slow download was cut after %d bytes, %v: %v", got, time.Since(start), err)
		}
	}
	if d := time.Since(start); d < 2*testLimits.Stall {
		t.Fatalf("the download took only %v: it proves nothing", d)
	}

	c, resp := get()
	time.Sleep(3 * testLimits.Stall)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := io.Copy(io.Discard, resp.Body)
	var ne net.Error
	if n >= size || err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("a stalled download was not cut: %d of %d bytes (%v)", n, size, err)
	}
}
