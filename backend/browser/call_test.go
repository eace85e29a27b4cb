package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// TestCallEndsAtTheFirstOfItsBounds runs calls that only their bounds can end: the context
// ending, the lifeline being cut, the deadline passing. Each returns at once with its reason,
// and the result that arrives after the caller left is released, not leaked.
func TestCallEndsAtTheFirstOfItsBounds(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		end     func(cancel context.CancelFunc, life *lifeline)
		want    error
		says    string
	}{
		{"cancelled", time.Hour, func(cancel context.CancelFunc, _ *lifeline) { cancel() }, context.Canceled, "context canceled"},
		{"browser gone", time.Hour, func(_ context.CancelFunc, life *lifeline) { life.cut("Chromium exited") }, agent.ErrBrowserGone, "Chromium exited"},
		{"deadline", 10 * time.Millisecond, func(context.CancelFunc, *lifeline) {}, context.DeadlineExceeded, "no answer from the browser within 10ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			life := newLifeline()
			started, finish, released := make(chan struct{}), make(chan struct{}), make(chan string, 1)
			result := make(chan error, 1)
			go func() {
				_, err := callOwned(ctx, limits{life: life, timeout: tt.timeout}, func() (string, error) {
					close(started)
					<-finish
					return "late page", nil
				}, func(v string) { released <- v })
				result <- err
			}()
			<-started
			tt.end(cancel, life)
			err := <-result
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("call = %v, want %v saying %q", err, tt.want, tt.says)
			}
			close(finish)
			if v := <-released; v != "late page" {
				t.Errorf("released %q, want the late result", v)
			}
		})
	}
}

// TestCallsAfterDeathFailAtOnce checks that a cut lifeline refuses a call before it starts.
func TestCallsAfterDeathFailAtOnce(t *testing.T) {
	life := newLifeline()
	life.cut("the Playwright driver exited")
	life.cut("Chromium exited") // the first reason stands
	_, err := call(context.Background(), limits{life: life, timeout: time.Hour}, func() (int, error) {
		t.Error("the call reached Playwright")
		return 0, nil
	})
	if !errors.Is(err, agent.ErrBrowserGone) || err.Error() != "the browser closed or crashed: the Playwright driver exited" {
		t.Errorf("call = %v, want ErrBrowserGone saying the driver exited", err)
	}
}

// TestShortenKeepsTheDetailOutOfTheMessage checks that an error keeps its first line, and
// whatever Playwright appended goes to the log; errors.Is still sees the whole error.
func TestShortenKeepsTheDetailOutOfTheMessage(t *testing.T) {
	var log bytes.Buffer
	launchLog := strings.Repeat("<launching> /usr/bin/chromium --no-sandbox\n", 200)
	err := shorten(&log, "click button[Save]", errors.Join(playwright.ErrTargetClosed, errors.New("Browser logs:\n"+launchLog)))
	if err.Error() != "click button[Save]: target closed" {
		t.Errorf("message %q, want only the first line", err)
	}
	if !errors.Is(err, playwright.ErrTargetClosed) {
		t.Error("the short error no longer unwraps to the whole one")
	}
	if !strings.Contains(log.String(), "click button[Save]: target closed") || !strings.Contains(log.String(), launchLog) {
		t.Errorf("the log lacks the detail: %q", log.String())
	}
	// The detail travels with the error too, for the attempt's browser log.
	wrapped := fmt.Errorf("the first observation failed: %w", err)
	if got := agent.BrowserLogOf(wrapped); !strings.HasPrefix(got, "Browser logs:") || !strings.Contains(got, "<launching>") {
		t.Errorf("the error's browser log %.60q, want the detail", got)
	}
	// A death's one-line error carries the detail of the Playwright error that revealed it.
	gone := withDetail(fmt.Errorf("click: %w", agent.ErrBrowserGone), errors.New("target closed\nBrowser logs:\n"+launchLog))
	if !errors.Is(gone, agent.ErrBrowserGone) || strings.Contains(gone.Error(), "\n") || !strings.Contains(agent.BrowserLogOf(gone), "<launching>") {
		t.Errorf("a death's error %q carries log %.60q", gone, agent.BrowserLogOf(gone))
	}
	if plain := withDetail(agent.ErrBrowserGone, errors.New("target closed")); plain != agent.ErrBrowserGone {
		t.Errorf("an error without detail was wrapped: %v", plain)
	}
}
