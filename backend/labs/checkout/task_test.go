package checkout_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/harness"
	"observatory/backend/labs"
	"observatory/backend/labs/checkout"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// TestTaskFileMirrorsTheLab: the lab's task file declares the lab's authority, plan and
// attempts.
func TestTaskFileMirrorsTheLab(t *testing.T) {
	s, err := taskfile.Load("task.yaml", taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	lab := checkout.New()
	if got, want := s.Task().Authority, lab.Task().Authority; !reflect.DeepEqual(got, want) {
		t.Errorf("authority %+v, want the lab's %+v", got, want)
	}
	for i, a := range s.Plan() {
		if w := lab.Plan()[i]; a.Kind != w.Kind || a.Target != w.Target {
			t.Errorf("plan[%d] %s %s, want the lab's %s %s", i, a.Kind, a.Target, w.Kind, w.Target)
		}
	}
	for i, a := range s.Attempts() {
		if w := lab.Attempts()[i]; a.Slug != w.Slug || a.Fault != w.Fault {
			t.Errorf("attempt %d %s (%s), want the lab's %s (%s)", i, a.Slug, a.Fault, w.Slug, w.Fault)
		}
	}
}

// TestTaskFileInChromium runs the task file's attempts in Chromium with the harness on and no
// approvals: the harness alone stops the changed price and the switched account, and every
// attempt orders what the lab's harnessed column says and ends as it does.
func TestTaskFileInChromium(t *testing.T) {
	browsertest.Ready(t)
	s, err := taskfile.Load("task.yaml", taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Suite: s, Policy: harness.Policy{},
		Launch: func(ctx context.Context) (agent.Browser, error) {
			b, err := browser.Launch(ctx, browser.Options{Headless: true})
			if err != nil {
				return nil, err
			}
			return b, nil
		}}
	run, err := r.Run(context.Background(), "task-file", runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range run.Attempts {
		placed, err := checkout.PlacedBy(a)
		want := checkout.Table[a.Slug]
		if err != nil || placed != want.Harnessed || a.Terminal != want.Terminal {
			t.Errorf("%s: %+v %s (%s) %v; want %+v %s", a.Slug, placed, a.Terminal, a.Reason, err, want.Harnessed, want.Terminal)
		}
		for _, st := range a.Steps {
			if len(st.Approvals) > 0 {
				t.Errorf("%s: an approval was asked, but the task file asks for none", a.Slug)
			}
		}
		// The stops came from the harness looking again, not from the app.
		stops := map[string]string{
			"price-changed":    `re-checked with the pointer on the control: the page changed since the action was planned (the price changed from "20.00" to "25.00"`,
			"account-switched": `the signed-in account changed from "alice" to "bob"`,
		}
		if want, ok := stops[a.Slug]; ok && !strings.Contains(a.Reason, want) {
			t.Errorf("%s: ended %q, want it held because %s", a.Slug, a.Reason, want)
		}
	}
}
