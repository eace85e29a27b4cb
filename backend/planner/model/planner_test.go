package model

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestCorrections checks that a call the planner cannot use goes back to the model as a tool
// error naming what is wrong, answered under its own call ID, and that the model's next,
// valid call becomes the proposal.
func TestCorrections(t *testing.T) {
	cases := []struct {
		name string
		bad  func(a api) reply
		want string // in the error sent back
	}{
		{"malformed JSON", func(a api) reply {
			if a.provider == ProviderAnthropic { // the API always sends JSON; a string is not the object wanted
				return a.call("bad_1", "click", `"Reserve slot"`)
			}
			return a.call("bad_1", "click", `{"target": {"role": "button",`)
		}, "not valid JSON"},
		{"unknown tool", func(a api) reply { return a.call("bad_1", "teleport", `{"reason":"faster"}`) }, `unknown tool "teleport"`},
		{"missing target", func(a api) reply { return a.call("bad_1", "click", `{"reason":"go"}`) }, "click needs a target"},
		{"two locators", func(a api) reply {
			return a.call("bad_1", "click", `{"target":{"role":"button","name":"Reserve slot","text":"Reserve"},"reason":"go"}`)
		}, "exactly one locator"},
		{"name without role", func(a api) reply { return a.call("bad_1", "click", `{"target":{"name":"Reserve slot"},"reason":"go"}`) }, "no role"},
		{"fill without value", func(a api) reply {
			return a.call("bad_1", "fill", `{"target":{"label":"Reservation title"},"reason":"go"}`)
		}, "fill needs a non-empty value"},
		{"scroll sideways", func(a api) reply { return a.call("bad_1", "scroll", `{"direction":"left","reason":"go"}`) }, "direction"},
	}
	for _, a := range apis {
		for _, c := range cases {
			t.Run(a.name+"/"+c.name, func(t *testing.T) {
				f := newScripted(t, a, c.bad(a), click(a, "good_1"))
				p, _ := planner(t, bookingIntent, Config{}, f)
				prop, err := p.Next(context.Background(), page(0), nil)
				if err != nil {
					t.Fatal(err)
				}
				if prop.Action.Kind != agent.ActClick {
					t.Fatalf("proposal %+v, want the corrected click", prop)
				}
				reqs := f.requests()
				if len(reqs) != 2 {
					t.Fatalf("%d requests, want 2", len(reqs))
				}
				reqs[1].checkPairs(t)
				var res *item
				for i, it := range reqs[1].Items {
					if it.Kind == "result" {
						res = &reqs[1].Items[i]
					}
				}
				if res == nil || res.ID != "bad_1" || !res.IsError || !strings.Contains(res.Text, c.want) {
					t.Errorf("the correction went back as %+v, want an error on bad_1 saying %q", res, c.want)
				}
				turns := p.Turns()
				if len(turns) != 2 || turns[0].Calls[0].Outcome != "rejected" || turns[1].Calls[0].Outcome != "proposed" {
					t.Errorf("turns %+v", turns)
				}
			})
		}
	}
}

// TestPlannerOutcomes checks the planner's other answers: read_page_text is answered from
// the observation; done becomes a verify step the gate decides; a reply without a tool call
// is asked again, then planning gives up; persistent mode refuses done and pauses on silence;
// scroll is a PageDown press.
func TestPlannerOutcomes(t *testing.T) {
	const reasonDone = "The reservation is in the table."
	cases := []struct {
		name    string
		cfg     Config
		replies func(a api) []reply
		check   func(t *testing.T, p agent.Proposal, err error, reqs []view, turns []agent.ModelTurn, slept []time.Duration)
	}{
		{name: "read_page_text is answered here", replies: func(a api) []reply {
			return []reply{a.call("r1", "read_page_text", `{"reason":"look"}`), click(a, "c1")}
		}, check: func(t *testing.T, p agent.Proposal, err error, reqs []view, turns []agent.ModelTurn, _ []time.Duration) {
			res := lastResult(reqs[1])
			if err != nil || p.Action.Kind != agent.ActClick || res.ID != "r1" || res.IsError || res.Text != page(0).Text {
				t.Errorf("proposal %+v, %v; read_page_text answered %+v", p, err, res)
			}
			if turns[0].Calls[0].Outcome != "answered" {
				t.Errorf("turn %+v", turns[0])
			}
		}},
		{name: "done is a verify step", replies: func(a api) []reply {
			return []reply{a.call("d1", "done", `{"reason":"`+reasonDone+`"}`)}
		}, check: func(t *testing.T, p agent.Proposal, err error, _ []view, _ []agent.ModelTurn, _ []time.Duration) {
			want := agent.Action{ID: "m1-done", Kind: agent.ActVerify, Description: "model says done"}
			if err != nil || p.Action != want || p.Reason != reasonDone || p.End {
				t.Errorf("proposal %+v, %v; want %+v with the model's reason", p, err, want)
			}
		}},
		{name: "silence is corrected, then ends planning", replies: func(a api) []reply {
			return []reply{a.text("Thinking."), a.text("Still thinking."), a.text("Hmm."), a.text("Well.")}
		}, check: func(t *testing.T, _ agent.Proposal, err error, reqs []view, turns []agent.ModelTurn, _ []time.Duration) {
			if err == nil || !strings.Contains(err.Error(), "without a tool call") {
				t.Errorf("error %v", err)
			}
			if last := reqs[1].Items[len(reqs[1].Items)-1]; last.Kind != "user" || !strings.Contains(last.Text, "exactly one tool call") {
				t.Errorf("the second request ends with %+v", last)
			}
			if turns[len(turns)-1].Error == "" {
				t.Error("the ending is not recorded")
			}
		}},
		{name: "persistent: done refused, silence pauses", cfg: Config{Persistent: true}, replies: func(a api) []reply {
			return []reply{a.call("d1", "done", `{"reason":"finished"}`), a.text("Nothing to do."), click(a, "c1")}
		}, check: func(t *testing.T, p agent.Proposal, err error, reqs []view, turns []agent.ModelTurn, slept []time.Duration) {
			if err != nil || p.Action.Kind != agent.ActClick {
				t.Fatalf("proposal %+v, %v; want the click after the pauses", p, err)
			}
			if res := lastResult(reqs[1]); res.ID != "d1" || !res.IsError || !strings.Contains(res.Text, "persistent") {
				t.Errorf("done answered %+v", res)
			}
			if last := reqs[2].Items[len(reqs[2].Items)-1]; !strings.Contains(last.Text, "pauses the run") || !strings.Contains(last.Text, "Time left") {
				t.Errorf("after the pause the model is told %+v", last)
			}
			if len(slept) != 2 || slept[0] != 5*time.Second || slept[1] != 5*time.Second {
				t.Errorf("slept %v, want two 5 s pauses", slept)
			}
			if !strings.Contains(reqs[0].System, "persistent") || turns[0].Calls[0].Outcome != "refused" {
				t.Errorf("system %q; turn %+v", reqs[0].System, turns[0])
			}
		}},
		{name: "scroll is a PageDown press", replies: func(a api) []reply {
			return []reply{a.call("s1", "scroll", `{"direction":"down","reason":"see more"}`)}
		}, check: func(t *testing.T, p agent.Proposal, err error, _ []view, _ []agent.ModelTurn, _ []time.Duration) {
			if err != nil || p.Action.Kind != agent.ActPress || p.Action.Value != "PageDown" || !p.Action.Target.IsZero() {
				t.Errorf("proposal %+v, %v", p, err)
			}
		}},
	}
	for _, a := range apis {
		for _, c := range cases {
			t.Run(a.name+"/"+c.name, func(t *testing.T) {
				f := newScripted(t, a, c.replies(a)...)
				p, clk := planner(t, bookingIntent, c.cfg, f)
				prop, err := p.Next(context.Background(), page(0), nil)
				reqs := f.requests()
				for _, r := range reqs {
					r.checkPairs(t)
				}
				c.check(t, prop, err, reqs, p.Turns(), clk.sleeps())
			})
		}
	}
}

// TestOnlyFirstCallRuns checks that of several calls in one reply only the first becomes the
// proposal; the others are answered as not run beside its result, under their own IDs.
func TestOnlyFirstCallRuns(t *testing.T) {
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			r := click(a, "c1")
			r.body = mergeCalls(t, a, r.body, a.call("c2", "fill", `{"target":{"label":"Title"},"value":"x","reason":"y"}`).body)
			f := newScripted(t, a, r, a.call("c3", "done", `{"reason":"ok"}`))
			p, _ := planner(t, bookingIntent, Config{}, f)
			first, err := p.Next(context.Background(), page(0), nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Next(context.Background(), page(50), []agent.Step{ran(0, first, page(0), page(50))}); err != nil {
				t.Fatal(err)
			}
			turns := p.Turns()
			if first.Action.Kind != agent.ActClick || len(turns[0].Calls) != 2 || turns[0].Calls[1].Outcome != "rejected" {
				t.Errorf("proposal %+v; turn %+v", first, turns[0])
			}
			req := f.requests()[1]
			req.checkPairs(t)
			if res := lastResult(req); res.ID != "c2" || !res.IsError || !strings.Contains(res.Text, "one action per turn") {
				t.Errorf("the extra call was answered %+v", res)
			}
		})
	}
}

// mergeCalls is the reply body first with the tool call of body second added after its own,
// in api's format.
func mergeCalls(t *testing.T, a api, first, second string) string {
	t.Helper()
	var f, s map[string]any
	if json.Unmarshal([]byte(first), &f) != nil || json.Unmarshal([]byte(second), &s) != nil {
		t.Fatal("scripted bodies are not JSON")
	}
	if a.provider == ProviderOpenAI {
		fm := f["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
		sm := s["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
		fm["tool_calls"] = append(fm["tool_calls"].([]any), sm["tool_calls"].([]any)...)
	} else {
		f["content"] = append(f["content"].([]any), s["content"].([]any)...)
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// lastResult is the last tool result in v.
func lastResult(v view) item {
	for i := len(v.Items) - 1; i >= 0; i-- {
		if v.Items[i].Kind == "result" {
			return v.Items[i]
		}
	}
	return item{}
}

// TestLimits checks that the time limit and both budgets end planning with an error wrapping
// ErrExhausted and its own sentinel, and that the model is told the time left.
func TestLimits(t *testing.T) {
	cases := []struct {
		name    string
		cfg     Config
		advance time.Duration // clock moved between the two steps
		want    error
	}{
		{"token budget", Config{TokenBudget: usageIn + usageOut}, 0, ErrTokenBudget},
		{"money budget", Config{MoneyBudget: 0.0004}, 0, ErrMoneyBudget},
		{"time limit", Config{TimeLimitMS: 60_000}, time.Minute, ErrTimeLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newScripted(t, openaiAPI, click(openaiAPI, "c1"))
			p, clk := planner(t, bookingIntent, c.cfg, f)
			first, err := p.Next(context.Background(), page(0), nil)
			if err != nil {
				t.Fatal(err)
			}
			clk.advance(c.advance)
			_, err = p.Next(context.Background(), page(10), []agent.Step{ran(0, first, page(0), page(10))})
			if !errors.Is(err, c.want) || !errors.Is(err, ErrExhausted) {
				t.Fatalf("error %v, want %v wrapping ErrExhausted", err, c.want)
			}
			if len(f.requests()) != 1 {
				t.Errorf("%d requests; the limit must stop the second", len(f.requests()))
			}
			turns := p.Turns()
			if turns[len(turns)-1].Error != err.Error() {
				t.Errorf("the last turn records %q", turns[len(turns)-1].Error)
			}
		})
	}
	t.Run("time left is told", func(t *testing.T) {
		f := newScripted(t, openaiAPI, click(openaiAPI, "c1"), click(openaiAPI, "c2"))
		p, clk := planner(t, bookingIntent, Config{TimeLimitMS: 90_000}, f)
		first, err := p.Next(context.Background(), page(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		clk.advance(30 * time.Second)
		if _, err := p.Next(context.Background(), page(10), []agent.Step{ran(0, first, page(0), page(10))}); err != nil {
			t.Fatal(err)
		}
		reqs := f.requests()
		for i, want := range []string{"Time left: 1m30s.", "Time left: 1m0s."} {
			if last := reqs[i].Items[len(reqs[i].Items)-1]; !strings.HasSuffix(last.Text, want) {
				t.Errorf("request %d ends %q, want %q", i, last.Text, want)
			}
		}
	})
}

// TestHeldStepGoesBack checks that a step policy held is reported to the model as not run,
// with the policy's reason, so it proposes again.
func TestHeldStepGoesBack(t *testing.T) {
	f := newScripted(t, anthropicAPI, click(anthropicAPI, "c1"), click(anthropicAPI, "c2"))
	p, _ := planner(t, bookingIntent, Config{}, f)
	first, err := p.Next(context.Background(), page(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	held := agent.Step{Index: 0, Action: first.Action, Before: page(0), After: page(0), Error: "the page changed",
		Decision: agent.Decision{Class: agent.ClassCommit, Admission: agent.Hold, Reason: "the page changed since the action was planned"}}
	if _, err := p.Next(context.Background(), page(20), []agent.Step{held}); err != nil {
		t.Fatal(err)
	}
	res := lastResult(f.requests()[1])
	if res.ID != "c1" || !res.IsError || !strings.Contains(res.Text, "Not run: policy held this commit action: the page changed since") {
		t.Errorf("the held step went back as %+v", res)
	}
}

// TestVision checks that the screenshot is sent only with vision on, and only with the
// newest observation.
func TestVision(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shot-1.jpg"), []byte("\xff\xd8\xff fake jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := func(at int64) agent.Sample { s := page(at); s.Screenshot = "shot-1.jpg"; return s }
	for _, a := range apis {
		for _, vision := range []bool{false, true} {
			f := newScripted(t, a, click(a, "c1"), click(a, "c2"))
			p, _ := planner(t, bookingIntent, Config{Vision: vision, MediaDir: dir}, f)
			first, err := p.Next(context.Background(), shot(0), nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Next(context.Background(), shot(10), []agent.Step{ran(0, first, shot(0), shot(10))}); err != nil {
				t.Fatal(err)
			}
			var images []bool
			for _, it := range f.requests()[1].Items {
				if it.Kind == "user" {
					images = append(images, it.Image)
				}
			}
			want := []bool{false, false, vision} // the intent, the first page, the newest page
			if len(images) != 3 || images[0] != want[0] || images[1] != want[1] || images[2] != want[2] {
				t.Errorf("%s, vision %v: images on user messages %v, want %v", a.name, vision, images, want)
			}
		}
	}
}

// TestUnresolvedTargetGoesBack checks that a step whose target matched several elements (or
// none) goes back to the model as a tool error it can correct, naming how many matched, and
// that planning ends, naming the step, once more targets in a row than Corrections failed so.
func TestUnresolvedTargetGoesBack(t *testing.T) {
	unresolved := func(i int, p agent.Proposal, obs agent.Sample, why string) agent.Step {
		s := ran(i, p, obs, obs)
		s.Error, s.Unresolved, s.Resolved = p.Action.Target.String()+": "+why, true, ""
		return s
	}
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			f := newScripted(t, a, click(a, "c1"), click(a, "c2"))
			p, _ := planner(t, bookingIntent, Config{Recovery: Recovery{Corrections: 1}}, f)
			obs := page(0)
			obs.Seq = 7
			first, err := p.Next(context.Background(), obs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g := p.Turns()[0]; g.GroundedSeq != 7 || g.GroundedAtMS != 0 {
				t.Errorf("the turn was grounded on observation %d at %d ms, want 7 at 0", g.GroundedSeq, g.GroundedAtMS)
			}
			if !strings.Contains(f.requests()[0].Items[1].Text, "Current page (observation 7, observed at 0 ms)") {
				t.Errorf("the model is not told which observation it sees: %q", f.requests()[0].Items[1].Text)
			}
			steps := []agent.Step{unresolved(0, first, page(0), "several elements match the target (3 of them)")}
			second, err := p.Next(context.Background(), page(10), steps)
			if err != nil {
				t.Fatal(err)
			}
			res := lastResult(f.requests()[1])
			if res.ID != "c1" || !res.IsError || !strings.Contains(res.Text, "Not run: button[Reserve slot]: several elements match the target (3 of them). Name exactly one element") {
				t.Errorf("the ambiguous target went back as %+v", res)
			}
			steps = append(steps, unresolved(1, second, page(10), "no element matches the target"))
			prop, err := p.Next(context.Background(), page(20), steps)
			if err == nil || !strings.Contains(err.Error(), "2 times in a row; the last, step 2 (click button[Reserve slot]): button[Reserve slot]: no element matches") {
				t.Fatalf("error %v, want planning to end naming the step", err)
			}
			if len(f.requests()) != 2 || len(prop.Turns) != 1 || prop.Turns[0].Error != err.Error() {
				t.Errorf("%d requests, turns %+v; want no third request and the ending recorded", len(f.requests()), prop.Turns)
			}
		})
	}
}
