package browser

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestObservationIsReusedOnlyWhileNothingChanged changes the page behind the observer's back,
// each time in a way that fires no event a person would (the page's own script, run without
// a round trip of the observer's), and checks that the page no longer counts as quiet and the
// next observation shows the change; and that once observed, a page left alone is quiet.
func TestObservationIsReusedOnlyWhileNothingChanged(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "quiet.html", agent.PageOptions{}).(*Page)
	// observe observes until the page is quiet right after (a change may still fire its
	// events late: a selection change after the focus moved, a frame's load).
	observe := func() agent.Sample {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			s := mustObserve(t, page)
			if stillQuiet(t, page) {
				return s
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("the page is never quiet right after an observation, for 10 s")
		return agent.Sample{}
	}
	field := func(s agent.Sample, name string) agent.Field {
		for _, f := range s.Fields {
			if f.Name == name {
				return f
			}
		}
		return agent.Field{}
	}
	first := observe()
	if again := mustObserve(t, page); !slices.Equal(again.Pairs, first.Pairs) || again.Text != first.Text {
		t.Fatalf("a quiet page's sample changed: %+v then %+v", first, again)
	}
	for _, c := range []struct {
		name, script string
		shows        func(agent.Sample) bool
	}{
		{"a value set by script", `document.getElementById("name").value = "Ada"`,
			func(s agent.Sample) bool { return field(s, "Name").Value == "Ada" && !field(s, "Name").Invalid }},
		{"a checkbox checked by script", `document.getElementById("news").checked = true`,
			func(s agent.Sample) bool { return field(s, "Newsletter").Value == "true" }},
		{"an option selected by script", `document.getElementById("plan").selectedIndex = 1`,
			func(s agent.Sample) bool { return field(s, "Plan").Value == "Pro" }},
		{"a validity set by script", `document.getElementById("name").setCustomValidity("taken")`,
			func(s agent.Sample) bool { return field(s, "Name").Invalid }},
		{"the focus moved", `document.getElementById("name").focus()`,
			func(s agent.Sample) bool { return s.Focus != nil && s.Focus.Name == "Name" }},
		{"the address pushed", `history.pushState(null, "", "/next")`,
			func(s agent.Sample) bool { return strings.HasSuffix(s.URL, "/next") }},
		{"an open shadow root's text", `document.getElementById("host").shadowRoot.firstChild.textContent = "Open changed"`,
			func(s agent.Sample) bool { return strings.Contains(s.Text, "Open changed") }},
		{"a declared shadow root's text", `document.getElementById("declared").shadowRoot.firstChild.textContent = "Declared changed"`,
			func(s agent.Sample) bool { return strings.Contains(s.Text, "Declared changed") }},
		{"a closed shadow root hiding its host's content", `closedRoot.innerHTML = "<p>Closed</p>"; document.getElementById("closed-host").textContent = "Slotted"`,
			func(s agent.Sample) bool { return !strings.Contains(s.Text, "Slotted") }},
		{"a child frame's text", `document.getElementById("child").contentDocument.getElementById("deep").textContent = "Child changed"`,
			func(s agent.Sample) bool {
				return len(s.Frames) == 1 && strings.Contains(s.Frames[0].Text, "Child changed")
			}},
		{"a child frame's value set by script", `document.getElementById("child").contentDocument.getElementById("code").value = "42"`,
			func(s agent.Sample) bool {
				return len(s.Frames) == 1 && slices.ContainsFunc(s.Frames[0].Fields, func(f agent.Field) bool { return f.Value == "42" })
			}},
		{"the title", `document.title = "Renamed"`,
			func(s agent.Sample) bool { return s.Title == "Renamed" }},
		{"the page scrolled", `document.body.style.height = "5000px"; scrollTo(0, 900)`,
			func(s agent.Sample) bool { return true }},
	} {
		if _, err := page.page.Evaluate(c.script); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if stillQuiet(t, page) {
			t.Errorf("%s: the page still counts as quiet", c.name)
		}
		if s := observe(); !c.shows(s) {
			t.Errorf("%s: the observation does not show it: %+v", c.name, s)
		}
	}

	// A page with an animation running is never quiet, whatever it counted.
	if _, err := page.page.Evaluate(`const s = document.getElementById("spinner"); s.hidden = false; s.className = "spin"`); err != nil {
		t.Fatal(err)
	}
	mustObserve(t, page)
	if stillQuiet(t, page) {
		t.Errorf("a page with an animation running counts as quiet")
	}
}

// stillQuiet reports whether the next observation would reuse the last sample: it asks the
// page as an observation does, with the sample Page.reusable offers, and tells whether the
// observation script answered that nothing changed since (same) rather than sampling afresh.
func stillQuiet(t *testing.T, p *Page) bool {
	t.Helper()
	_, same, err := p.sampleUnless(context.Background(), p.reusable())
	if err != nil {
		t.Fatalf("ask whether the page changed: %v", err)
	}
	return same
}
