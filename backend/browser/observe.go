package browser

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// observeJS samples the page in the browser and returns agent.Sample as JSON.
//
//go:embed observe.js
var observeJS string

// screenshotQuality is the JPEG quality of stored frames.
const screenshotQuality = 70

// Observe samples the page in one round trip; with screenshots on it first stores a frame
// (a second round trip) and sets Sample.Screenshot. The frame comes first because a
// screenshot waits for the page's next painted frame, which can be 100 ms away on a busy
// machine: sampled the other way round, a save could land between the two and the picture
// would show what the sample says has not happened yet.
func (p *Page) Observe(ctx context.Context) (agent.Sample, error) {
	var shot string
	if p.opts.Screenshots && p.opts.MediaDir != "" {
		var err error
		if shot, err = p.screenshot(ctx); err != nil {
			return agent.Sample{}, err
		}
	}
	raw, err := call(ctx, func() (any, error) { return p.page.Evaluate(observeJS) })
	if err != nil {
		return agent.Sample{}, p.fail("observe the page", err)
	}
	encoded, ok := raw.(string)
	if !ok {
		return agent.Sample{}, fmt.Errorf("observe the page: the script returned %T, not JSON text", raw)
	}
	var s agent.Sample
	if err := json.Unmarshal([]byte(encoded), &s); err != nil {
		return agent.Sample{}, fmt.Errorf("observe the page: decode the sample: %w", err)
	}
	s.Screenshot = shot
	return s, nil
}

// screenshot stores a JPEG of the viewport under a name derived from its content, so an
// unchanged page is stored once, and returns that name.
func (p *Page) screenshot(ctx context.Context) (string, error) {
	img, err := call(ctx, func() ([]byte, error) {
		return p.page.Screenshot(playwright.PageScreenshotOptions{
			Type:    playwright.ScreenshotTypeJpeg,
			Quality: playwright.Int(screenshotQuality),
		})
	})
	if err != nil {
		return "", p.fail("take a screenshot", err)
	}
	sum := sha256.Sum256(img)
	name := hex.EncodeToString(sum[:8]) + ".jpg"
	path := filepath.Join(p.opts.MediaDir, name)
	if _, err := os.Stat(path); err == nil {
		return name, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("check for stored screenshot %s: %w", path, err)
	}
	if err := os.WriteFile(path, img, 0o644); err != nil {
		return "", fmt.Errorf("store screenshot: %w", err)
	}
	return name, nil
}
