package browsertest

import (
	"context"
	"errors"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
)

func TestLaunchGivesAWorkingBrowser(t *testing.T) {
	Ready(t)
	b := Launch(t)
	ctx := context.Background()
	page, err := b.NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	if err := page.Goto(ctx, "data:text/html,<button>Go</button>"); err != nil {
		t.Fatal(err)
	}
	if err := page.Resolve(ctx, agent.Target{Role: "button", Name: "Go"}); err != nil {
		t.Errorf("the launched browser cannot find the page's button: %v", err)
	}
}

func TestStartSaysWhatIsMissing(t *testing.T) {
	t.Setenv("OBSERVATORY_CHROMIUM", "/nonexistent/chromium")
	b, err := Start(context.Background())
	if err == nil {
		_ = b.Close()
		t.Fatal("Start succeeded without a Chromium")
	}
	if !errors.Is(err, browser.ErrNoChromium) {
		t.Errorf("Start = %v, want ErrNoChromium", err)
	}
}
