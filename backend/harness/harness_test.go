package harness

import (
	"context"
	"strings"
	"testing"

	"observatory/backend/agent"
)

func click(role, name string) agent.Action {
	return agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: role, Name: name}}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		a        agent.Action
		contract agent.Contract
		class    agent.ActionClass
	}{
		{agent.Action{Kind: agent.ActVerify}, agent.ContractControl, agent.ClassObserve},
		{agent.Action{Kind: agent.ActHover, Target: agent.Target{Role: "button", Name: "Send"}}, agent.ContractRead, agent.ClassObserve},
		{agent.Action{Kind: agent.ActWaitFor, Target: agent.Target{TestID: "done"}}, agent.ContractRead, agent.ClassObserve},
		{agent.Action{Kind: agent.ActNavigate, Value: "https://example.com/"}, agent.ContractNavigate, agent.ClassExplore},
		{agent.Action{Kind: agent.ActUpload, Target: agent.Target{Label: "Attachment"}}, agent.ContractIrreversible, agent.ClassCommit},
		{agent.Action{Kind: agent.ActDownload, Target: agent.Target{Role: "link", Name: "Statement"}}, agent.ContractMutate, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Next"}}, agent.ContractIrreversible, agent.ClassCommit},
		// Booking's two commits stay commits.
		{click("button", "Reserve slot"), agent.ContractIrreversible, agent.ClassCommit},
		{agent.Action{Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Save reservation"}}, agent.ContractIrreversible, agent.ClassCommit},
		// The broad word list.
		{click("button", "Send"), agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Post reply"), agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Buy now"), agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Pay now"), agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Confirm order"), agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Publish"), agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Retry"), agent.ContractIrreversible, agent.ClassCommit},
		{agent.Action{Kind: agent.ActClick, Target: agent.Target{Text: "Send now"}}, agent.ContractIrreversible, agent.ClassCommit},
		{click("button", "Delete account"), agent.ContractIrreversible, agent.ClassDestruct},
		{click("link", "Remove from list"), agent.ContractIrreversible, agent.ClassDestruct},
		// Names that only look alike, tabs and links.
		{click("button", "Details"), agent.ContractMutate, agent.ClassPrepare},
		{click("button", "Sent items"), agent.ContractMutate, agent.ClassPrepare},
		{click("tab", "Send"), agent.ContractNavigate, agent.ClassExplore},
		{click("link", "Orders history"), agent.ContractNavigate, agent.ClassExplore},
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Send to"}}, agent.ContractMutate, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActSelect}, agent.ContractMutate, agent.ClassPrepare},
		// Keys where nothing has the focus: only Control/Meta+Enter sends.
		{agent.Action{Kind: agent.ActPress, Value: "Control+Enter"}, agent.ContractIrreversible, agent.ClassCommit},
		{agent.Action{Kind: agent.ActPress, Value: "Meta+Enter"}, agent.ContractIrreversible, agent.ClassCommit},
		{agent.Action{Kind: agent.ActPress, Value: "Enter"}, agent.ContractMutate, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActPress, Value: "Shift+Enter"}, agent.ContractMutate, agent.ClassPrepare},
	}
	for _, tt := range tests {
		got := Classify(tt.a, agent.Sample{})
		if got.Contract != tt.contract || got.Class != tt.class || got.Why == "" {
			t.Errorf("Classify(%s %s %q) = %+v, want %s/%s with a reason", tt.a.Kind, tt.a.Target, tt.a.Value, got, tt.contract, tt.class)
		}
	}
}

// TestClassifyKeys classifies a key press by what it would activate: the control it is
// pressed on, or the focused one when it names no target, and for Enter in a field the
// button its form submits through.
func TestClassifyKeys(t *testing.T) {
	press := func(key string, target agent.Target) agent.Action {
		return agent.Action{Kind: agent.ActPress, Value: key, Target: target}
	}
	button := func(name string) agent.Target { return agent.Target{Role: "button", Name: name} }
	focused := func(role, name string) *agent.Focus { return &agent.Focus{Role: role, Name: name} }
	inForm := func(role, name, submitter string) *agent.Focus {
		return &agent.Focus{Role: role, Name: name, Submits: true, Submitter: submitter}
	}
	tests := []struct {
		name     string
		a        agent.Action
		focus    *agent.Focus
		contract agent.Contract
		class    agent.ActionClass
		control  string
		risk     agent.Risk
	}{
		{"Enter on the Send button", press("Enter", button("Send")), nil, agent.ContractIrreversible, agent.ClassCommit, "Send", agent.RiskLow},
		{"Space on the Send button", press("Space", button("Send")), nil, agent.ContractIrreversible, agent.ClassCommit, "Send", agent.RiskLow},
		{"a space on the Post button", press(" ", button("Post reply")), nil, agent.ContractIrreversible, agent.ClassCommit, "Post reply", agent.RiskLow},
		{"Enter on a control found by its text", press("Enter", agent.Target{Text: "Pay now"}), nil, agent.ContractIrreversible, agent.ClassCommit, "Pay now", agent.RiskHigh},
		{"Enter on Delete", press("Enter", button("Delete account")), nil, agent.ContractIrreversible, agent.ClassDestruct, "Delete account", agent.RiskHigh},
		{"Enter on the focused Pay button", press("Enter", agent.Target{}), focused("button", "Pay"), agent.ContractIrreversible, agent.ClassCommit, "Pay", agent.RiskHigh},
		{"Space on the focused Send button", press("Space", agent.Target{}), focused("button", "Send"), agent.ContractIrreversible, agent.ClassCommit, "Send", agent.RiskLow},
		{"Shift+Enter on the focused Send button", press("Shift+Enter", agent.Target{}), focused("button", "Send"), agent.ContractIrreversible, agent.ClassCommit, "Send", agent.RiskLow},
		{"Meta+Shift+Enter in a message", press("Meta+Shift+Enter", agent.Target{}), focused("textbox", "Message"), agent.ContractIrreversible, agent.ClassCommit, "Message", agent.RiskLow},
		{"Control+Shift+Enter on a field", press("Control+Shift+Enter", agent.Target{Label: "Message"}), nil, agent.ContractIrreversible, agent.ClassCommit, "Message", agent.RiskLow},
		{"ControlOrMeta+Enter", press("ControlOrMeta+Enter", agent.Target{}), nil, agent.ContractIrreversible, agent.ClassCommit, "", agent.RiskLow},
		{"Alt+Control+Enter", press("Alt+Control+Enter", agent.Target{}), nil, agent.ContractIrreversible, agent.ClassCommit, "", agent.RiskLow},
		{"Enter in a field whose form submits through Send", press("Enter", agent.Target{}), inForm("textbox", "To", "Send"), agent.ContractIrreversible, agent.ClassCommit, "Send", agent.RiskLow},
		{"Enter in the targeted field, focused, whose form pays", press("Enter", agent.Target{Role: "textbox", Name: "Card"}), inForm("textbox", "Card", "Pay 20.00"), agent.ContractIrreversible, agent.ClassCommit, "Pay 20.00", agent.RiskHigh},
		{"Enter in a labelled field, focused, whose form posts", press("Enter", agent.Target{Label: "Comment"}), inForm("textbox", "Comment", "Post"), agent.ContractIrreversible, agent.ClassCommit, "Post", agent.RiskLow},
		{"Enter in a form without a button", press("Enter", agent.Target{}), inForm("searchbox", "Search", ""), agent.ContractIrreversible, agent.ClassCommit, "", agent.RiskLow},
		{"Enter in a search whose button says Search", press("Enter", agent.Target{}), inForm("searchbox", "Search", "Search"), agent.ContractMutate, agent.ClassPrepare, "Search", ""},
		{"Enter on a link", press("Enter", agent.Target{Role: "link", Name: "Orders"}), nil, agent.ContractNavigate, agent.ClassExplore, "Orders", ""},
		{"Enter on a tab named Send", press("Enter", agent.Target{}), focused("tab", "Send"), agent.ContractNavigate, agent.ClassExplore, "Send", ""},
		{"Enter in a text area", press("Enter", agent.Target{}), focused("textbox", "Message"), agent.ContractMutate, agent.ClassPrepare, "Message", ""},
		{"Enter in a field that is not the focused one", press("Enter", agent.Target{Role: "textbox", Name: "Subject"}), inForm("textbox", "To", "Send"), agent.ContractMutate, agent.ClassPrepare, "Subject", ""},
		{"Space in a field types a space", press("Space", agent.Target{}), inForm("textbox", "To", "Send"), agent.ContractMutate, agent.ClassPrepare, "To", ""},
		{"Escape on Send", press("Escape", button("Send")), nil, agent.ContractMutate, agent.ClassPrepare, "Send", ""},
		{"Tab away from Send", press("Tab", agent.Target{}), focused("button", "Send"), agent.ContractMutate, agent.ClassPrepare, "Send", ""},
		{"a letter on Send", press("s", agent.Target{}), focused("button", "Send"), agent.ContractMutate, agent.ClassPrepare, "Send", ""},
		{"Enter on a harmless button", press("Enter", button("Details")), nil, agent.ContractMutate, agent.ClassPrepare, "Details", ""},
	}
	for _, tt := range tests {
		got := Classify(tt.a, agent.Sample{Focus: tt.focus})
		if got.Contract != tt.contract || got.Class != tt.class || got.Control != tt.control || RiskOf(got) != tt.risk || got.Why == "" {
			t.Errorf("%s: %+v (risk %q), want %s/%s on %q, risk %q, with a reason", tt.name, got, RiskOf(got), tt.contract, tt.class, tt.control, tt.risk)
		}
	}
}

// TestAPressOnSendIsReviewedAndApproved: Enter on the focused Send button goes through the
// same review and approval as a click on it would.
func TestAPressOnSendIsReviewedAndApproved(t *testing.T) {
	page := agent.Sample{URL: "http://lab/", Focus: &agent.Focus{Role: "button", Name: "Send"},
		Fields: []agent.Field{{Role: "textbox", Name: "Message", Value: "the Q3 figures"}}}
	guard := &agent.Safeguards{Review: &agent.ReviewSpec{Policy: "no figures", Reviewer: agent.ReviewerRules,
		Rules: []agent.ReviewRule{{Expr: `page.fields.exists(f, f.value.contains("Q3"))`, Reason: "it shares the figures"}}}}
	enter := agent.Action{Kind: agent.ActPress, Value: "Enter"}
	d, err := Policy{}.Decide(context.Background(), agent.PolicyRequest{Action: enter, Grounding: page, Fresh: page, Spent: 1, Budget: 8, Safeguards: guard})
	if err != nil || d.Admission != agent.Hold || d.Review == nil || d.Review.Verdict != agent.ReviewCaution {
		t.Errorf("Enter on Send with a cautioning rule: %+v (%v), want held by the review", d, err)
	}
	d, _ = Policy{}.Decide(context.Background(), agent.PolicyRequest{Action: enter, Grounding: page, Fresh: page, Spent: 1, Budget: 8,
		Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 10}}})
	if d.Admission != agent.Allow || !d.AskUser {
		t.Errorf("Enter on Send with approval on: %+v, want it to wait for the user", d)
	}
}

func TestAdmit(t *testing.T) {
	submit := agent.Action{Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Save"}}
	fill := agent.Action{Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Title"}}
	page := agent.Sample{URL: "http://lab/", DialogOpen: true, Fields: []agent.Field{{Role: "textbox", Name: "Title", Value: "Spectral scan"}}}
	edited := page
	edited.Fields = []agent.Field{{Role: "textbox", Name: "Title", Value: "Something else"}}
	harmless := page
	harmless.Notice = "Autosaved" // not part of the fingerprint

	tests := []struct {
		name          string
		a             agent.Action
		grounding     agent.Sample
		fresh         agent.Sample
		spent, budget int
		want          agent.Admission
		reasonHas     string
	}{
		{"commit on an unchanged page", submit, page, page, 2, 8, agent.Allow, "still matches"},
		{"commit after a harmless change", submit, page, harmless, 2, 8, agent.Allow, "still matches"},
		{"commit after the form changed", submit, page, edited, 2, 8, agent.Hold, "changed"},
		{"prepare on a changed page", fill, page, edited, 1, 8, agent.Allow, "within budget"},
		{"budget spent", fill, page, page, 8, 8, agent.Deny, "8 of 8"},
	}
	for _, tt := range tests {
		d := Admit(agent.PolicyRequest{Action: tt.a, Grounding: tt.grounding, Fresh: tt.fresh, Spent: tt.spent, Budget: tt.budget})
		if d.Admission != tt.want || !strings.Contains(d.Reason, tt.reasonHas) || d.Fingerprint == "" || d.Key == "" {
			t.Errorf("%s: got %+v, want %s with reason mentioning %q", tt.name, d, tt.want, tt.reasonHas)
		}
	}
}

func TestKeysTellCallsApart(t *testing.T) {
	home := agent.Sample{URL: "http://lab/inbox"}
	send := click("button", "Send")
	tests := []struct {
		name string
		a    agent.Action
		page agent.Sample
		same bool
	}{
		{"the same call", send, home, true},
		{"the same page with a fragment", send, agent.Sample{URL: "http://lab/inbox#top"}, true},
		{"the same call whatever the fields hold", send, agent.Sample{URL: "http://lab/inbox", Fields: []agent.Field{{Name: "To", Value: "x"}}}, true},
		{"another page", send, agent.Sample{URL: "http://lab/drafts"}, false},
		{"another tool", agent.Action{Kind: agent.ActHover, Target: send.Target}, home, false},
		{"another target", click("button", "Retry"), home, false},
		{"another value", agent.Action{Kind: agent.ActFill, Target: send.Target, Value: "a"}, home, false},
	}
	base := Key(send, home)
	for _, tt := range tests {
		if got := Key(tt.a, tt.page) == base; got != tt.same {
			t.Errorf("%s: same key %v, want %v", tt.name, got, tt.same)
		}
	}
}

// step is a recorded step of action a on page url, run (allowed) with the given error.
func step(i int, a agent.Action, url, err string) agent.Step {
	c := Classify(a, agent.Sample{URL: url})
	return agent.Step{Index: i, Action: a, Error: err, Decision: agent.Decision{Contract: c.Contract, Class: c.Class,
		Key: Key(a, agent.Sample{URL: url}), Admission: agent.Allow}}
}

func TestGuidanceCounts(t *testing.T) {
	const page, other = "http://lab/", "http://lab/other"
	send, save := click("button", "Send"), click("button", "Apply filter")
	read := agent.Action{Kind: agent.ActWaitFor, Target: agent.Target{TestID: "list"}}
	otherRead := agent.Action{Kind: agent.ActHover, Target: agent.Target{TestID: "menu"}}
	fill := agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "Search"}, Value: "x"}
	tests := []struct {
		name    string
		steps   []agent.Step // the last is the one guided
		wantHas string       // "" for no guidance
	}{
		{"one failure", []agent.Step{step(0, send, page, "boom")}, ""},
		{"two identical failures", []agent.Step{step(0, send, page, "boom"), step(1, send, page, "boom")}, "change approach"},
		{"two failures, a read between", []agent.Step{step(0, send, page, "boom"), step(1, otherRead, page, ""), step(2, send, page, "boom")}, "change approach"},
		{"two failures on different pages", []agent.Step{step(0, send, page, "boom"), step(1, send, other, "boom")}, ""},
		{"two failures, a fill between", []agent.Step{step(0, send, page, "boom"), step(1, fill, page, ""), step(2, send, page, "boom")}, ""},
		{"two identical reads", []agent.Step{step(0, read, page, ""), step(1, read, page, "")}, ""},
		{"three identical reads", []agent.Step{step(0, read, page, ""), step(1, read, page, ""), step(2, read, page, "")}, "nothing is changing"},
		{"three reads, a fill resets", []agent.Step{step(0, read, page, ""), step(1, fill, page, ""), step(2, read, page, ""), step(3, read, page, "")}, ""},
		{"three reads, another read between", []agent.Step{step(0, read, page, ""), step(1, otherRead, page, ""), step(2, read, page, ""), step(3, read, page, "")}, "nothing is changing"},
		{"three identical clicks that worked", []agent.Step{step(0, save, page, ""), step(1, save, page, ""), step(2, save, page, "")}, "not as you expect"},
		{"three clicks on two pages", []agent.Step{step(0, save, page, ""), step(1, save, other, ""), step(2, save, other, "")}, ""},
		{"three clicks, a fill resets", []agent.Step{step(0, save, page, ""), step(1, fill, page, ""), step(2, save, page, ""), step(3, save, page, "")}, ""},
	}
	for _, tt := range tests {
		n := len(tt.steps)
		got := Guidance(tt.steps[:n-1], tt.steps[n-1])
		if (tt.wantHas == "") != (got == "") || !strings.Contains(got, tt.wantHas) {
			t.Errorf("%s: guidance %q, want %q", tt.name, got, tt.wantHas)
		}
	}
}

func TestHoldRepeat(t *testing.T) {
	const page = "http://lab/"
	send := click("button", "Send")
	sent := step(3, send, page, "")
	sent.Traffic.Requests = []agent.Request{{Method: "GET", URL: page + "api/drafts", Status: 200}, {Method: "POST", URL: page + "api/send", Status: 201}}
	opened := step(3, send, page, "") // the first Send only opened a confirm panel, with its own Send
	opened.Before.Pairs = []agent.RoleName{{Role: "button", Name: "Send"}}
	opened.After.Pairs = []agent.RoleName{{Role: "button", Name: "Send"}, {Role: "button", Name: "Send"}}
	opened.Traffic.Requests = []agent.Request{{Method: "GET", URL: page + "api/drafts", Status: 200}, {Method: "POST", URL: page + "api/send", Status: 403}}
	pending := step(3, send, page, "") // its request answered during the next step
	answered := step(4, agent.Action{Kind: agent.ActVerify}, page, "")
	answered.Traffic.Requests = []agent.Request{{Method: "POST", URL: page + "api/send", Status: 200}}
	versioned := step(3, send, page, "")
	versioned.Before.Version, versioned.After.Version = "v1", "v2"
	failed := step(3, send, page, "timeout")
	again := Admit(agent.PolicyRequest{Action: send, Grounding: agent.Sample{URL: page}, Fresh: agent.Sample{URL: page}, Spent: 4, Budget: 8})
	fill := agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "To"}, Value: "a"}
	tests := []struct {
		name    string
		d       agent.Decision
		history []agent.Step
		want    agent.Admission
		goesOn  bool
	}{
		{"an irreversible action that succeeded here", again, []agent.Step{sent}, agent.Hold, true},
		{"one whose effect was seen a step later", again, []agent.Step{pending, answered}, agent.Hold, true},
		{"one that moved the page's version", again, []agent.Step{versioned}, agent.Hold, true},
		{"one that opened a confirmation and committed nothing", again, []agent.Step{opened}, agent.Allow, false},
		{"one whose effect may still be in flight", again, []agent.Step{pending}, agent.Hold, true},
		{"one that failed here", again, []agent.Step{failed}, agent.Allow, false},
		{"one that succeeded on another page", Admit(agent.PolicyRequest{Action: send, Grounding: agent.Sample{URL: page + "x"}, Fresh: agent.Sample{URL: page + "x"}, Spent: 4, Budget: 8}), []agent.Step{sent}, agent.Allow, false},
		{"a fill repeated", Admit(agent.PolicyRequest{Action: fill, Grounding: agent.Sample{URL: page}, Fresh: agent.Sample{URL: page}, Spent: 4, Budget: 8}), []agent.Step{step(0, fill, page, "")}, agent.Allow, false},
		{"a denial stands", Admit(agent.PolicyRequest{Action: send, Grounding: agent.Sample{URL: page}, Fresh: agent.Sample{URL: page}, Spent: 8, Budget: 8}), []agent.Step{sent}, agent.Deny, false},
	}
	for _, tt := range tests {
		d := HoldRepeat(tt.d, tt.history)
		if d.Admission != tt.want || d.Continue != tt.goesOn {
			t.Errorf("%s: %s (continue %v), want %s (continue %v): %s", tt.name, d.Admission, d.Continue, tt.want, tt.goesOn, d.Reason)
		}
	}
}

func TestUnreadableSaysSoOnceThenReminds(t *testing.T) {
	board := agent.Region{Kind: agent.RegionCanvas, What: "canvas#board", X: 20, Y: 80, W: 480, H: 360}
	on := func(i int, regions ...agent.Region) agent.Step {
		return agent.Step{Index: i, After: agent.Sample{URL: "http://lab/", Unreadable: regions}}
	}
	first := Unreadable(nil, on(0, board))
	if !strings.Contains(first, "canvas#board (480×360 at 20,80)") || !strings.Contains(first, "accessible or text mode") || !strings.Contains(first, "keyboard") || !strings.Contains(first, "list") {
		t.Errorf("first time: %q, want the region and the text routes", first)
	}
	if got := Unreadable([]agent.Step{on(0)}, on(1, board)); got != first {
		t.Errorf("first region after a readable step: %q, want the full note", got)
	}
	later := Unreadable([]agent.Step{on(0, board)}, on(1, board))
	if !strings.HasPrefix(later, "reminder: canvas#board") || strings.Contains(later, "\n") || len(later) > 100 {
		t.Errorf("later: %q, want a one-line reminder", later)
	}
	if got := Unreadable([]agent.Step{on(0, board)}, on(1)); got != "" {
		t.Errorf("a readable page: %q, want nothing", got)
	}
	g := Policy{}.Guidance(nil, on(0, board))
	if g != first {
		t.Errorf("policy guidance %q, want the unreadable note", g)
	}
}
