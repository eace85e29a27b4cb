package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
	"observatory/backend/labs/booking"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	tests := []struct {
		role, name string
		want       error
		mention    string
	}{
		{role: "button", name: "New booking"},
		{role: "heading", name: "Bookings"},
		{role: "button", name: "New", want: agent.ErrNoTarget},
		{role: "button", name: "Book now", want: agent.ErrNoTarget},
		{role: "link", name: "New booking", want: agent.ErrNoTarget},
		{role: "button", name: "Decoration", want: agent.ErrNoTarget}, // aria-hidden
		{role: "button", name: "Help", want: agent.ErrAmbiguousTarget, mention: "(2 of them)"},
	}
	for _, tt := range tests {
		t.Run(tt.role+"/"+tt.name, func(t *testing.T) {
			err := page.Resolve(context.Background(), agent.Target{Role: tt.role, Name: tt.name})
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("Resolve = %v, want %v", err, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %q does not mention %q", err, tt.mention)
			}
		})
	}
}

// Refusals and cancellation are decided before any browser call, so a page with no browser
// behind it shows they never reach one.
func TestRefusedBeforeTheBrowser(t *testing.T) {
	page := &Page{b: &Browser{life: newLifeline(), timeout: callTimeout}, life: newLifeline()}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	tests := []struct {
		name string
		call func() error
		want error // nil: only the message is checked
		says string
	}{
		{"verify is no page action", func() error {
			return page.Act(live, agent.Action{Kind: agent.ActVerify, Target: agent.Target{Role: "button", Name: "Save"}, Value: ""})
		}, nil, "is not a page action"},
		{"goto cancelled", func() error { return page.Goto(cancelled, "about:blank") }, context.Canceled, ""},
		{"observe cancelled", func() error { _, err := page.Observe(cancelled); return err }, context.Canceled, ""},
		{"resolve cancelled", func() error { return page.Resolve(cancelled, agent.Target{Role: "button", Name: "Save"}) }, context.Canceled, ""},
		{"act cancelled", func() error {
			return page.Act(cancelled, agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Save"}, Value: ""})
		}, context.Canceled, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want %v saying %q", err, tt.want, tt.says)
			}
		})
	}
}

func TestClosedPageIsBrowserGone(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	if _, err := page.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	ctx := context.Background()
	calls := map[string]func() error{
		"goto":    func() error { return page.Goto(ctx, "about:blank") },
		"observe": func() error { _, err := page.Observe(ctx); return err },
		"resolve": func() error { return page.Resolve(ctx, agent.Target{Role: "button", Name: "New booking"}) },
		"act": func() error {
			return page.Act(ctx, agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "New booking"}, Value: ""})
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			if err := call(); !errors.Is(err, agent.ErrBrowserGone) {
				t.Errorf("%s on a closed page = %v, want ErrBrowserGone", name, err)
			}
		})
	}
}

func TestCrashedPageIsBrowserGone(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	ctx := context.Background()
	// The renderer dies mid-navigation; Goto refuses browser URLs, so around it.
	_, _ = page.(*Page).page.Goto("chrome://crash")
	_, err := page.Observe(ctx)
	if !errors.Is(err, agent.ErrBrowserGone) || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("Observe on a crashed page = %v, want ErrBrowserGone saying it crashed", err)
	}
}

func TestClosedBrowserIsBrowserGone(t *testing.T) {
	t.Parallel()
	needDriver(t)
	ctx := context.Background()
	b, err := Launch(ctx, Options{Headless: true})
	if err != nil {
		policy.Unavailable(t, err)
	}
	page, err := b.NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Goto(ctx, labServer(t)); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("close the browser: %v", err)
	}
	if err := page.Act(ctx, agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "New booking"}, Value: ""}); !errors.Is(err, agent.ErrBrowserGone) {
		t.Errorf("Act after the browser closed = %v, want ErrBrowserGone", err)
	}
	if _, err := b.NewPage(ctx, agent.PageOptions{}); !errors.Is(err, agent.ErrBrowserGone) {
		t.Errorf("NewPage after the browser closed = %v, want ErrBrowserGone", err)
	}
}

// action is one page action a test performs.
type action struct {
	kind              agent.ActionKind
	role, name, value string
}

// TestStopKeepsWorkFromTheLab stops a page on the real booking lab: a slow save already sent
// is cancelled, a save the page's scripts send afterwards never reaches the lab, nothing is
// committed either way, and the page can still be observed.
func TestStopKeepsWorkFromTheLab(t *testing.T) {
	open := action{agent.ActClick, "button", booking.ReserveLabel, ""}
	fill := action{agent.ActFill, "textbox", "Reservation title", "Spectral scan"}
	save := action{agent.ActSubmit, "button", "Save reservation", ""}
	tests := []struct {
		name          string
		latencyMS     int
		before, after []action // performed before and after Stop
		pending       string   // an event the lab must have logged before Stop, "" for none
		last          string   // the lab's last event, "" for any
		never         string   // an event the lab must not log, "" for none
	}{
		{name: "a pending save is cancelled", latencyMS: 3000, before: []action{open, fill, save},
			pending: booking.EventSaveRequested, last: booking.EventCancelled},
		{name: "a later save never leaves", before: []action{open, fill}, after: []action{save}, never: booking.EventSaveRequested},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := booking.Start("", booking.FaultNone, tt.latencyMS)
			if err != nil {
				t.Fatal(err)
			}
			defer inst.Close()
			ctx := context.Background()
			p := openLab(t, agent.PageOptions{})
			if err := p.Goto(ctx, inst.URL()); err != nil {
				t.Fatal(err)
			}
			for _, a := range tt.before {
				mustAct(t, p, a.kind, a.role, a.name, a.value)
			}
			if tt.pending != "" {
				waitForEvent(t, inst, tt.pending)
			}
			if err := p.Stop(ctx); err != nil {
				t.Fatal(err)
			}
			for _, a := range tt.after {
				mustAct(t, p, a.kind, a.role, a.name, a.value)
			}
			if err := inst.Quiesce(ctx); err != nil {
				t.Fatal(err)
			}
			events := inst.Events()
			if n := len(events); tt.last != "" && (n == 0 || events[n-1].Type != tt.last) {
				t.Errorf("events %v, want the last one %q", events, tt.last)
			}
			for _, e := range events {
				if tt.never != "" && e.Type == tt.never {
					t.Errorf("the lab logged %q after Stop: %v", e.Type, events)
				}
			}
			if n := len(inst.State().Records); n != 0 {
				t.Errorf("%d records committed after Stop, want none", n)
			}
			if s := mustObserve(t, p); !s.DialogOpen {
				t.Error("the page is no longer observable after Stop, or its dialog closed")
			}
		})
	}
}

// waitForEvent waits until the lab has logged an event of type typ: the page queues its
// requests, so on a busy machine a click's request reaches the lab some time after the click.
func waitForEvent(t *testing.T, inst *booking.Instance, typ string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, e := range inst.Events() {
			if e.Type == typ {
				return
			}
		}
	}
	t.Fatalf("the lab never logged %q: %v", typ, inst.Events())
}
