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

// dialogs is the JavaScript dialog a page keeps open for its agent (see KeepDialogs). Until
// KeepDialogs, no listener is registered and Playwright dismisses every dialog at once, as
// for any run an outside agent does not drive.
type dialogs struct {
	mu   sync.Mutex
	keep bool
	open playwright.Dialog
	// shown is closed when a dialog opens, for an action under way to stop waiting on a page
	// whose script the dialog stopped.
	shown chan struct{}
}

// KeepDialogs leaves each JavaScript dialog any tab of the attempt opens pending until the
// agent answers it (ActDialogAccept, ActDialogDismiss). A beforeunload dialog is accepted, as
// Playwright does when nobody listens: leaving a page is the agent's own act.
func (p *Page) KeepDialogs() {
	p.dialogs.mu.Lock()
	defer p.dialogs.mu.Unlock()
	if p.dialogs.keep {
		return
	}
	p.dialogs.keep = true
	p.dialogs.shown = make(chan struct{})
	p.bc.OnDialog(func(d playwright.Dialog) {
		if d.Type() == "beforeunload" {
			_ = d.Accept()
			return
		}
		p.dialogs.mu.Lock()
		defer p.dialogs.mu.Unlock()
		if p.dialogs.open != nil { // a second one cannot open while the first blocks; drop it
			_ = d.Dismiss()
			return
		}
		p.dialogs.open = d
		close(p.dialogs.shown)
	})
	p.bc.OnDialogClosed(p.dialogs.closed) // answered, or its tab closed or crashed
}

// closed forgets d when it is the open dialog, so that the next one can be shown.
func (ds *dialogs) closed(d playwright.Dialog) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.open == d {
		ds.open, ds.shown = nil, make(chan struct{})
	}
}

// Dialog is the dialog left open for the agent, if any.
func (p *Page) Dialog() (agent.PendingDialog, bool) {
	p.dialogs.mu.Lock()
	defer p.dialogs.mu.Unlock()
	d := p.dialogs.open
	if d == nil {
		return agent.PendingDialog{}, false
	}
	return agent.PendingDialog{Type: d.Type(), Message: d.Message(), Default: d.DefaultValue()}, true
}

// untilDialog is ctx ended as soon as a kept dialog opens, for an action whose effect the
// dialog interrupts (a click whose handler calls confirm): the action did what it does, and
// the page waits on the agent. stop releases it.
func (p *Page) untilDialog(ctx context.Context) (context.Context, func()) {
	p.dialogs.mu.Lock()
	shown := p.dialogs.shown
	p.dialogs.mu.Unlock()
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

// answerDialog accepts (with the prompt's text) or dismisses the dialog left open.
func (p *Page) answerDialog(ctx context.Context, a agent.Action) error {
	p.dialogs.mu.Lock()
	d := p.dialogs.open
	p.dialogs.mu.Unlock()
	if d == nil {
		return fmt.Errorf("%w: no dialog is open to answer", agent.ErrRefused)
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
