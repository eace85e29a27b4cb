package browser

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrontRefusesWhatLeavesTheGuard: the DevTools front answers a new browser context (with
// or without a proxy of its own, on the browser's session or a page's) and a proxy-setting
// extension with a DevTools error carrying the command's id and session; everything else,
// an extension without the proxy permission included, goes on to the browser.
func TestFrontRefusesWhatLeavesTheGuard(t *testing.T) {
	plain, proxy := t.TempDir(), t.TempDir()
	_ = os.WriteFile(filepath.Join(plain, "manifest.json"), []byte(`{"manifest_version": 3, "permissions": ["debugger", "tabs"]}`), 0o644)
	_ = os.WriteFile(filepath.Join(proxy, "manifest.json"), []byte(`{"manifest_version": 3, "optional_permissions": ["Proxy"]}`), 0o644)
	load := func(dir string) string {
		b, _ := json.Marshal(map[string]any{"id": 9, "method": "Extensions.loadUnpacked", "params": map[string]string{"path": dir}})
		return string(b)
	}
	for _, c := range []struct {
		msg, refused string
	}{
		{`{"id": 1, "method": "Target.createBrowserContext", "params": {}}`, "Target.createBrowserContext"},
		{`{"id": 2, "sessionId": "S1", "method": "Target.createBrowserContext", "params": {"proxyServer": "direct://", "proxyBypassList": "*"}}`, "Target.createBrowserContext"},
		{load(proxy), `asks for the "proxy" permission`},
		{load(plain), ""},
		{`{"id": 3, "method": "Target.createTarget", "params": {"url": "about:blank"}}`, ""},
		{`{"id": 4, "method": "Runtime.evaluate", "params": {"expression": "1"}}`, ""},
		{`not json`, ""},
	} {
		answer := refuseAnswer([]byte(c.msg))
		if c.refused == "" {
			if answer != nil {
				t.Errorf("%s: refused with %s", c.msg, answer)
			}
			continue
		}
		var got struct {
			ID        int    `json:"id"`
			SessionID string `json:"sessionId"`
			Error     struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		var sent struct {
			ID        int    `json:"id"`
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal([]byte(c.msg), &sent)
		if err := json.Unmarshal(answer, &got); err != nil || got.ID != sent.ID || got.SessionID != sent.SessionID ||
			got.Error.Code != -32000 || !strings.HasPrefix(got.Error.Message, "Observatory refused ") || !strings.Contains(got.Error.Message, c.refused) {
			t.Errorf("%s: answered %s (%v)", c.msg, answer, err)
		}
	}
}

// TestFrontTellsPagesFromClients: a web page's request (an Origin, or a browser's fetch
// metadata) may not drive the browser; a DevTools client's (Node's fetch sends only
// Sec-Fetch-Mode) and an extension's may.
func TestFrontTellsPagesFromClients(t *testing.T) {
	for _, c := range []struct {
		headers map[string]string
		page    bool
	}{
		{nil, false},
		{map[string]string{"Sec-Fetch-Mode": "cors"}, false},
		{map[string]string{"Origin": "chrome-extension://abc", "Sec-Fetch-Site": "none", "Sec-Fetch-Dest": "empty"}, false},
		{map[string]string{"Origin": "http://127.0.0.1:8080"}, true},
		{map[string]string{"Origin": "null"}, true},
		{map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"}, true},
	} {
		r := httptest.NewRequest("GET", "/json/version", nil)
		for k, v := range c.headers {
			r.Header.Set(k, v)
		}
		if got := fromPage(r); got != c.page {
			t.Errorf("%v: from a page %v, want %v", c.headers, got, c.page)
		}
	}
}
