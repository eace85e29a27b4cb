package browser

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

func TestLaunchExplainsWhatIsMissing(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		driverPath string // PLAYWRIGHT_DRIVER_PATH, "" to leave it as is
		chromium   string // OBSERVATORY_CHROMIUM
		opts       Options
		want       error
		advice     string
	}{
		{
			name: "missing option executable", opts: Options{ExecutablePath: "/nonexistent/chromium"},
			want: ErrNoChromium, advice: "OBSERVATORY_CHROMIUM",
		},
		{
			name: "missing environment executable", chromium: "/nonexistent/chromium",
			want: ErrNoChromium, advice: "run `observatory install --with-browser`",
		},
		{
			name: "missing driver", driverPath: t.TempDir(), opts: Options{ExecutablePath: self},
			want: ErrNoDriver, advice: "run `observatory install`",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.driverPath != "" {
				t.Setenv("PLAYWRIGHT_DRIVER_PATH", tt.driverPath)
			}
			t.Setenv("OBSERVATORY_CHROMIUM", tt.chromium)
			b, err := Launch(context.Background(), tt.opts)
			if err == nil {
				_ = b.Close()
				t.Fatal("Launch succeeded")
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.advice) {
				t.Errorf("Launch = %q, want %v saying %q", err, tt.want, tt.advice)
			}
		})
	}
}

func TestLaunchArgs(t *testing.T) {
	args := launchArgs()
	for _, want := range chromiumArgs {
		if !slices.Contains(args, want) {
			t.Errorf("args %v lack %s", args, want)
		}
	}
	hasNoSandbox := slices.Contains(args, "--no-sandbox")
	if root := os.Geteuid() == 0; hasNoSandbox != root {
		t.Errorf("--no-sandbox present=%v, running as root=%v", hasNoSandbox, root)
	}
}

func TestBrowserPagesAreIsolated(t *testing.T) {
	t.Parallel()
	b := testBrowser(t)
	url := labServer(t)
	ctx := context.Background()
	first, err := b.NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := first.Goto(ctx, url); err != nil {
		t.Fatal(err)
	}
	if err := first.Act(ctx, agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "New booking"}, Value: ""}); err != nil {
		t.Fatal(err)
	}
	second, err := b.NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if err := second.Goto(ctx, url); err != nil {
		t.Fatal(err)
	}
	if s := mustObserve(t, second); s.DialogOpen {
		t.Error("the second page sees the first page's open dialog")
	}
}
