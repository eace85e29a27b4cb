package report

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestReportDrawsTheTargetAndTheCandidates checks that the before screenshot carries the
// target's box and a miss's dashed, labelled candidate boxes, placed as percentages of the
// recorded viewport (so they scale with the image, no script needed), and that the step
// lists the candidates in words, escaped like everything else the run carries.
func TestReportDrawsTheTargetAndTheCandidates(t *testing.T) {
	run := testRun()
	steps := run.Attempts[0].Steps
	steps[0].TargetBox = &agent.Box{X: 250, Y: 70, Width: 100, Height: 35, ViewportWidth: 1000, ViewportHeight: 700}
	steps[1].Candidates = []agent.Candidate{
		{Role: "button", Name: "Book a slot", Similarity: 0.42, Box: agent.Box{X: 40.5, Y: 283.25, Width: 180.5, Height: 21, ViewportWidth: 1000, ViewportHeight: 700}},
		{Role: "link", Name: hostile, Similarity: 0.2, Box: agent.Box{X: 0, Y: 0, Width: 10, Height: 7, ViewportWidth: 1000, ViewportHeight: 700}},
	}
	out := render(t, run, mediaDir(t))
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Fatal("the report carries a script")
	}
	for _, want := range []string{
		`<div class="box target" style="left: 25%; top: 10%; width: 10%; height: 5%"><span>target</span></div>`,
		`<div class="box candidate" style="left: 4.05%; top: 40.464%; width: 18.05%; height: 3%"><span>1 · button &#34;Book a slot&#34;</span></div>`,
		`<div class="box candidate" style="left: 0%; top: 0%; width: 1%; height: 1%"><span>2 · link &#34;&lt;script&gt;`,
		`<li>button &#34;Book a slot&#34; (similarity 0.42)</li>`,
		`Step 2, before, with the boxes recorded just before the action`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	if n := strings.Count(out, `class="box `); n != 3 {
		t.Errorf("%d boxes drawn, want 3: the target's on step 1, two candidates on step 2", n)
	}
}
