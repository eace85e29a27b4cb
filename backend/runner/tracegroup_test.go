package runner_test

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// traceCall is a call the Playwright trace records: its "before" event.
type traceCall struct {
	Type     string `json:"type"`
	CallID   string `json:"callId"`
	ParentID string `json:"parentId"`
	Method   string `json:"method"`
	Title    string `json:"title"`
	APIName  string `json:"apiName"`
}

// traceCalls reads the calls of the trace zip at path, in order.
func traceCalls(t *testing.T, path string) []traceCall {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("the Playwright trace is not a zip: %v", err)
	}
	defer z.Close()
	var calls []traceCall
	for _, f := range z.File {
		if !strings.HasSuffix(f.Name, ".trace") || strings.HasSuffix(f.Name, ".network") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var c traceCall
			if json.Unmarshal(sc.Bytes(), &c) == nil && c.Type == "before" {
				calls = append(calls, c)
			}
		}
		r.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("reading %s in the trace: %v", f.Name, err)
		}
	}
	return calls
}

// TestPlaywrightTraceGroupsCallsUnderEachStep records a trace of the booking lab's
// saves-normally attempt and reads its events: each of the five agent actions is a group,
// in order, and the harness's calls for it (observing, resolving, acting) are inside it.
func TestPlaywrightTraceGroupsCallsUnderEachStep(t *testing.T) {
	media := t.TempDir()
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t)}
	run, err := r.Run(context.Background(), "grouped", runner.Options{Attempts: []string{"saves-normally"}, MediaRoot: media, Media: agent.Media{Trace: true}})
	if err != nil {
		t.Fatal(err)
	}
	a := run.Attempts[0]
	calls := traceCalls(t, filepath.Join(media, run.ID, a.Trace))
	var groups []string
	children := map[string][]string{} // a group's title to the methods called inside it
	title := map[string]string{}      // a group's call id to its title
	for _, c := range calls {
		switch {
		case c.Method == "tracingGroup":
			if c.ParentID != "" {
				t.Errorf("group %q is nested in %s; each step's group is at the top", c.Title, c.ParentID)
			}
			groups = append(groups, c.Title)
			title[c.CallID] = c.Title
		case c.ParentID != "":
			children[title[c.ParentID]] = append(children[title[c.ParentID]], c.Method)
		case len(groups) > 0:
			t.Errorf("call %s (%s) after the first step is outside every step's group", c.Method, c.CallID)
		}
	}
	want := []string{"Step 1: Open reservation dialog", "Step 2: Fill task title", "Step 3: Choose a room", "Step 4: Submit reservation form", "Step 5: Verify committed reservation"}
	if strings.Join(groups, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trace's groups are %q, want one per agent action %q", groups, want)
	}
	for k, action := range []string{"click", "fill", "selectOption", "click"} {
		if got := children[want[k]]; !slices.Contains(got, action) || !slices.Contains(got, "evalOnSelectorAll") {
			t.Errorf("%s holds %v, want its target resolved (evalOnSelectorAll counts its matches) and its %s", want[k], got, action)
		}
	}
	if len(children[want[4]]) == 0 {
		t.Errorf("%s holds no call, want its observation", want[4])
	}
}
