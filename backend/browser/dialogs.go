package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

var _ agent.DialogKeeper = (*Page)(nil)

// dialogs are the JavaScript dialogs a page keeps open for its agent (see KeepDialogs), one
// at most on each tab: as in Playwright MCP, a dialog belongs to its tab, and only the driven
// tab's is the agent's to answer (see Dialog). Until KeepDialogs, no listener is registered
// and Playwright dismisses every dialog at once, as for any run an outside agent does not
// drive.
type dialogs struct {
	mu sync.Mutex
	// open is nil until KeepDialogs.
	open map[playwright.Page]playwright.Dialog
	// shown holds, for a tab an action waits on, what is closed when a dialog opens there,
	// for the action to stop waiting on a page whose script the dialog stopped.
	shown map[playwright.Page]chan struct{}
}

// KeepDialogs leaves each JavaScript dialog any tab of the attempt opens pending until the
// agent answers it (ActDialogAccept, ActDialogDismiss) on that tab. A beforeunload dialog is
// accepted, as Playwright does when nobody listens: leaving a page is the agent's own act.
func (p *Page) KeepDialogs() {
	ds := &p.dialogs
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.open != nil {
		return
	}
	ds.open, ds.shown = map[playwright.Page]playwright.Dialog{}, map[playwright.Page]chan struct{}{}
	p.bc.OnDialog(func(d playwright.Dialog) {
		if d.Type() == "beforeunload" {
			_ = d.Accept()
			return
		}
		ds.mu.Lock()
		defer ds.mu.Unlock()
		tab := d.Page()
		if ds.open[tab] != nil { // a second one cannot open while the first blocks; drop it
			_ = d.Dismiss()
			return
		}
		ds.open[tab] = d
		if c, ok := ds.shown[tab]; ok {
			close(c)
			delete(ds.shown, tab)
		}
	})
	p.bc.OnDialogClosed(ds.closed) // answered, or its tab closed or crashed
}

// closed forgets d when it is its tab's open dialog, so that the next one can be shown.
func (ds *dialogs) closed(d playwright.Dialog) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if tab := d.Page(); ds.open[tab] == d {
		delete(ds.open, tab)
	}
}

// forget drops what is kept of tab, once it closed.
func (ds *dialogs) forget(tab playwright.Page) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	delete(ds.open, tab)
	delete(ds.shown, tab)
}

// of is tab's open dialog; nil when none is.
func (ds *dialogs) of(tab playwright.Page) playwright.Dialog {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return ds.open[tab]
}

// Dialog is the dialog left open for the agent on the driven tab, if any. A dialog another
// tab opened waits there until the agent turns to it.
func (p *Page) Dialog() (agent.PendingDialog, bool) {
	d := p.dialogs.of(p.driven())
	if d == nil {
		return agent.PendingDialog{}, false
	}
	return agent.PendingDialog{Type: d.Type(), Message: d.Message(), Default: d.DefaultValue()}, true
}

// untilDialog is ctx ended as soon as a kept dialog opens on the driven tab, for an action
// whose effect the dialog interrupts (a click whose handler calls confirm): the action did
// what it does, and the page waits on the agent. stop releases it.
func (p *Page) untilDialog(ctx context.Context) (context.Context, func()) {
	tab := p.driven()
	ds := &p.dialogs
	ds.mu.Lock()
	var shown chan struct{}
	switch {
	case ds.open == nil: // dialogs are not kept: none blocks
	case ds.open[tab] != nil:
		shown = make(chan struct{})
		close(shown)
	default:
		if shown = ds.shown[tab]; shown == nil {
			shown = make(chan struct{})
			ds.shown[tab] = shown
		}
	}
	ds.mu.Unlock()
	if shown == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-shown:
			cancel(errDialogShown)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}

// errDialogShown ends an action a kept dialog interrupted.
var errDialogShown = errors.New("a dialog opened")

// interrupted reports whether ctx, from untilDialog, ended because a dialog opened.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errDialogShown)
}

// answerDialog accepts (with the prompt's text) or dismisses the dialog left open on the
// driven tab.
func (p *Page) answerDialog(ctx context.Context, a agent.Action) error {
	d := p.dialogs.of(p.driven())
	if d == nil {
		return fmt.Errorf("%w: no dialog is open on this tab to answer", agent.ErrRefused)
	}
	err := do(ctx, p.limits(), func() error {
		if a.Kind == agent.ActDialogDismiss {
			return d.Dismiss()
		}
		if d.Type() == "prompt" {
			return d.Accept(a.Value)
		}
		return d.Accept()
	})
	if err != nil {
		return p.fail("answer the "+d.Type()+" dialog", err)
	}
	p.dialogs.closed(d) // unless the closing was heard first
	return nil
}

// behindDialog is the page's latest sample while a dialog blocks its script: marked
// DialogOpen, with the dialog in its Notice, and the latest frame.
func (p *Page) behindDialog(d agent.PendingDialog) (agent.Sample, error) {
	p.mu.Lock()
	raw, shot, framed := p.latest, p.lastShot, p.latest == p.lastRaw
	p.mu.Unlock()
	var s agent.Sample
	if raw != "" {
		var err error
		if s, err = decodeSample(raw, nil); err != nil {
			return s, err
		}
		if framed {
			shot.fill(&s)
		}
	}
	s.DialogOpen, s.JSDialog = true, &d
	s.Notice = fmt.Sprintf("%s dialog: %s", d.Type, d.Message)
	return s, nil
}
