package browser

import (
	"context"
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
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
		{role: "button", name: "Help", want: agent.ErrAmbiguousTarget, mention: "2 elements"},
	}
	for _, tt := range tests {
		t.Run(tt.role+"/"+tt.name, func(t *testing.T) {
			err := page.Resolve(context.Background(), tt.role, tt.name)
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
	var page Page
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
			return page.Act(live, agent.ActVerify, "button", "Save", "")
		}, nil, "use click, fill, select or submit"},
		{"goto cancelled", func() error { return page.Goto(cancelled, "about:blank") }, context.Canceled, ""},
		{"observe cancelled", func() error { _, err := page.Observe(cancelled); return err }, context.Canceled, ""},
		{"resolve cancelled", func() error { return page.Resolve(cancelled, "button", "Save") }, context.Canceled, ""},
		{"act cancelled", func() error {
			return page.Act(cancelled, agent.ActClick, "button", "Save", "")
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
		"resolve": func() error { return page.Resolve(ctx, "button", "New booking") },
		"act":     func() error { return page.Act(ctx, agent.ActClick, "button", "New booking", "") },
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
	_ = page.Goto(ctx, "chrome://crash") // the renderer dies mid-navigation
	_, err := page.Observe(ctx)
	if !errors.Is(err, agent.ErrBrowserGone) || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("Observe on a crashed page = %v, want ErrBrowserGone saying it crashed", err)
	}
}

func TestClosedBrowserIsBrowserGone(t *testing.T) {
	t.Parallel()
	skipWithoutBrowser(t)
	ctx := context.Background()
	b, err := Launch(ctx, Options{Headless: true})
	if err != nil {
		t.Fatal(err)
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
	if err := page.Act(ctx, agent.ActClick, "button", "New booking", ""); !errors.Is(err, agent.ErrBrowserGone) {
		t.Errorf("Act after the browser closed = %v, want ErrBrowserGone", err)
	}
	if _, err := b.NewPage(ctx, agent.PageOptions{}); !errors.Is(err, agent.ErrBrowserGone) {
		t.Errorf("NewPage after the browser closed = %v, want ErrBrowserGone", err)
	}
}

// TestStopAbortsAPendingSave starts a slow save in the real booking lab and stops the page:
// the lab logs the save as cancelled and commits nothing.
func TestStopAbortsAPendingSave(t *testing.T) {
	inst, err := booking.Start(booking.FaultNone, 3000)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	ctx := context.Background()
	p := openLab(t, agent.PageOptions{})
	if err := p.Goto(ctx, inst.URL()); err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		kind              agent.ActionKind
		role, name, value string
	}{
		{agent.ActClick, "button", booking.ReserveLabel, ""},
		{agent.ActFill, "textbox", "Reservation title", "Spectral scan"},
		{agent.ActSubmit, "button", "Save reservation", ""},
	} {
		mustAct(t, p, a.kind, a.role, a.name, a.value)
	}
	if err := p.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := inst.Quiesce(ctx); err != nil {
		t.Fatal(err)
	}
	events := inst.Events()
	if last := events[len(events)-1]; last.Type != booking.EventCancelled {
		t.Errorf("last event %q, want the save cancelled", last.Type)
	}
	if n := len(inst.State().Records); n != 0 {
		t.Errorf("%d records committed after Stop, want none", n)
	}
}

// TestStopKeepsQueuedRequestsFromLeaving stops the page before its save is even sent: work
// the page's scripts send afterwards never reaches the lab.
func TestStopKeepsQueuedRequestsFromLeaving(t *testing.T) {
	inst, err := booking.Start(booking.FaultNone, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	ctx := context.Background()
	p := openLab(t, agent.PageOptions{})
	if err := p.Goto(ctx, inst.URL()); err != nil {
		t.Fatal(err)
	}
	mustAct(t, p, agent.ActClick, "button", booking.ReserveLabel, "")
	mustAct(t, p, agent.ActFill, "textbox", "Reservation title", "Spectral scan")
	if err := p.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	mustAct(t, p, agent.ActSubmit, "button", "Save reservation", "")
	if err := inst.Quiesce(ctx); err != nil {
		t.Fatal(err)
	}
	for _, e := range inst.Events() {
		if e.Type == booking.EventSaveRequested {
			t.Fatalf("a save sent after Stop reached the lab: %v", inst.Events())
		}
	}
	if s := mustObserve(t, p); !s.DialogOpen {
		t.Error("the page is no longer observable after Stop")
	}
}
