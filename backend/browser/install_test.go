package browser

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestInstallOptions dry-runs Playwright's installer with the options Install and
// InstallWithBrowser use: the driver alone plans no browser, with a browser it plans Chromium
// and nothing else. A dry run downloads and installs nothing.
func TestInstallOptions(t *testing.T) {
	needDriver(t)
	tests := []struct {
		withBrowser bool
		plans       []string
		never       []string
	}{
		{withBrowser: false, never: []string{"chromium", "firefox", "webkit"}},
		{withBrowser: true, plans: []string{"playwright chromium", "Install location"}, never: []string{"firefox", "webkit"}},
	}
	for _, tt := range tests {
		opts := installOptions(tt.withBrowser)
		var out bytes.Buffer
		opts.DryRun, opts.Stdout, opts.Stderr = true, &out, &out
		// The system libraries' dry run is apt's simulation, which fails wherever any is missing.
		opts.WithDeps = false
		if err := install(context.Background(), opts); err != nil {
			t.Fatalf("dry run with browser=%v: %v\n%s", tt.withBrowser, err, &out)
		}
		for _, want := range tt.plans {
			if !strings.Contains(out.String(), want) {
				t.Errorf("dry run with browser=%v does not mention %q:\n%s", tt.withBrowser, want, &out)
			}
		}
		for _, not := range tt.never {
			if strings.Contains(strings.ToLower(out.String()), not) {
				t.Errorf("dry run with browser=%v mentions %q:\n%s", tt.withBrowser, not, &out)
			}
		}
	}
}
