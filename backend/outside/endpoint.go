package outside

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// endpointWait bounds the question to the browser for its WebSocket address.
const endpointWait = 10 * time.Second

// webSocketURL is the browser-wide DevTools WebSocket of the DevTools endpoint devtools
// (http://127.0.0.1:PORT), as the browser states it at /json/version: the address
// Puppeteer's browserWSEndpoint, Playwright's connectOverCDP and most CDP clients take.
func webSocketURL(ctx context.Context, devtools string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, endpointWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(devtools, "/")+"/json/version", nil)
	if err != nil {
		return "", fmt.Errorf("the browser's DevTools endpoint %s: %w", devtools, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("ask the browser's DevTools endpoint for its WebSocket: %w", err)
	}
	defer resp.Body.Close()
	var v struct {
		WebSocket string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&v); err != nil || resp.StatusCode != http.StatusOK ||
		!strings.HasPrefix(v.WebSocket, "ws://") {
		return "", fmt.Errorf("the browser's DevTools endpoint %s states no WebSocket address (HTTP %d, %v)", devtools, resp.StatusCode, err)
	}
	return v.WebSocket, nil
}
