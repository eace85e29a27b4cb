package runfile

import (
	"maps"
	"slices"

	"observatory/backend/agent"
)

// Explicit mappings between the format's types and the domain's, field by field.

func fromRun(run agent.Run) runV2 {
	return runV2{ID: run.ID, Task: run.Task, Created: run.Created, Source: run.Source, Spec: run.Spec, Budgets: ptr(run.Budgets, fromBudgets),
		LabHost: run.LabHost, SuiteRun: run.SuiteRun}
}

func fromAttempt(a agent.Attempt) attemptV2 {
	out := attemptV2{Slug: a.Slug, Title: a.Title, Trial: a.Trial, Task: fromTask(a.Task), Config: fromConfig(a.Config),
		Fault: a.Fault, Params: maps.Clone(a.Params), Plan: mapSlice(a.Plan, fromAction),
		Steps: mapSlice(a.Steps, fromStep), ModelTurns: mapSlice(a.ModelTurns, fromModelTurn), Events: mapSlice(a.Events, fromEvent),
		Answers: mapSlice(a.Answers, fromAnswer), Terminal: string(a.Terminal), Reason: a.Reason,
		Verdicts: fromVerdicts(a.Verdicts), Started: a.Started, Viewport: fromSize(a.Viewport), Evidence: string(a.EvidenceLevel), Video: a.Video, Trace: a.Trace,
		BrowserLog: browserLogV2(a.BrowserLog), Claim: ptr(a.Claim, fromClaim), Opening: ptr(a.Opening, fromTraffic)}
	if out.Plan == nil {
		out.Plan = []actionV2{}
	}
	return out
}

func fromTask(t agent.Task) taskV2 {
	return taskV2{Name: t.Name, Intent: t.Intent, StartURL: t.StartURL, Origins: slices.Clone(t.Origins),
		Authority: ptr(t.Authority, fromAuthority), Notices: mapSlice(t.Notices, fromNoticePlace)}
}

func fromConfig(c agent.Config) configV2 {
	return configV2{Wait: string(c.Wait), FixedWaitMS: c.FixedWaitMS, PollMS: c.PollMS,
		DeadlineMS: c.DeadlineMS, Selectors: string(c.Selectors), Budget: c.Budget,
		Retries: c.Retries, Safeguards: ptr(c.Safeguards, fromSafeguards), Budgets: ptr(c.Budgets, fromBudgets)}
}

func fromBudgets(b agent.Budgets) budgetsV2 {
	return budgetsV2{Steps: b.Steps, WallClockMS: b.WallClockMS, Retries: b.Retries, Navigations: b.Navigations,
		Uploads: b.Uploads, Downloads: b.Downloads, Commits: b.Commits, Tokens: b.Tokens, MoneyUSD: b.MoneyUSD}
}

func (b budgetsV2) toDomain() agent.Budgets {
	return agent.Budgets{Steps: b.Steps, WallClockMS: b.WallClockMS, Retries: b.Retries, Navigations: b.Navigations,
		Uploads: b.Uploads, Downloads: b.Downloads, Commits: b.Commits, Tokens: b.Tokens, MoneyUSD: b.MoneyUSD}
}

func fromAction(a agent.Action) actionV2 {
	a = a.Redacted()
	out := actionV2{ID: a.ID, Description: a.Description, Kind: string(a.Kind), Value: a.Value, Secret: a.Secret, Optional: a.Optional, Setup: a.Setup, TimeoutMS: a.TimeoutMS, Condition: a.Condition,
		Target: fromTarget(a.Target)}
	if a.To != nil {
		to := fromTarget(*a.To)
		out.To = &to
	}
	return out
}

func fromTarget(t agent.Target) targetV2 {
	out := targetV2{Role: t.Role, Name: t.Name, Label: t.Label, Placeholder: t.Placeholder,
		TestID: t.TestID, Text: t.Text, CSS: t.CSS, Alias: t.Alias,
		Frame: mapSlice(t.Frames.List(), func(f agent.FrameRef) frameV2 { return frameV2{Title: f.Title, Name: f.Name, CSS: f.CSS} })}
	if c := t.Within; !c.IsZero() {
		out.Within = &containerV2{Role: c.Role, Name: c.Name, TestID: c.TestID, CSS: c.CSS}
	}
	return out
}

func fromStep(s agent.Step) stepV2 {
	d := s.Decision
	return stepV2{Index: s.Index, Action: fromAction(s.Action), Provenance: string(s.Provenance), Reason: s.Reason,
		Evidence: s.Evidence, Decision: decisionV2{Class: string(d.Class), Admission: string(d.Admission), Reason: d.Reason, Fingerprint: d.Fingerprint,
			Contract: string(d.Contract), Why: d.Why, Key: d.Key, Continue: d.Continue, Review: ptr(d.Review, fromReview), AskUser: d.AskUser,
			RefusedByPage: d.RefusedByPage, Observed: ptr(d.Observed, fromFingerprint), Risk: string(d.Risk)},
		Resolved: s.Resolved, Before: fromSample(s.Before), After: fromSample(s.After), Distance: s.Distance,
		StartMS: s.StartMS, DurationMS: s.DurationMS, Blocked: slices.Clone(s.Blocked), Error: s.Error,
		Transfers: mapSlice(s.Transfers, func(t agent.Transfer) transferV2 {
			return transferV2{Kind: string(t.Kind), Offered: t.Offered, Saved: t.Saved, Bytes: t.Bytes}
		}),
		Guidance: s.Guidance, Output: s.Output, Approvals: mapSlice(s.Approvals, fromApproval), Reconciliation: ptr(s.Reconciliation, fromReconciliation),
		ModelTurns: mapSlice(s.ModelTurns, fromModelTurn),
		TargetBox:  ptr(s.TargetBox, fromBox), Candidates: mapSlice(s.Candidates, fromCandidate), Unresolved: s.Unresolved,
		trafficV2: fromTraffic(s.Traffic)}
}

func fromSample(s agent.Sample) sampleV2 {
	return sampleV2{Seq: s.Seq, AtMS: s.AtMS, URL: s.URL, Title: s.Title, DialogOpen: s.DialogOpen,
		Fields: mapSlice(s.Fields, func(f agent.Field) fieldV2 {
			return fieldV2{Role: f.Role, Name: f.Name, Value: f.Value, Invalid: f.Invalid}
		}),
		Notice: s.Notice, Alert: s.Alert, Rows: cloneRows(s.Rows), FormPresent: s.FormPresent, FormValid: s.FormValid,
		Pairs: mapSlice(s.Pairs, func(p agent.RoleName) roleNameV2 { return roleNameV2{Role: p.Role, Name: p.Name} }),
		Text:  s.Text, Principal: s.Principal, Facts: mapSlice(s.Facts, fromFact), Version: s.Version, Screenshot: s.Screenshot,
		Notices:  mapSlice(s.Notices, fromFact),
		Frames:   mapSlice(s.Frames, fromFrameView),
		Viewport: fromSize(s.Viewport), Tab: s.Tab, JSDialog: ptr(s.JSDialog, func(d agent.PendingDialog) jsDialogV2 { return jsDialogV2(d) }), ScreenshotSize: fromSize(s.ScreenshotSize), PixelRatio: s.PixelRatio,
		DOM: s.DOM, DOMSkipped: s.DOMSkipped,
		Unreadable: mapSlice(s.Unreadable, func(r agent.Region) regionV2 {
			return regionV2{Kind: r.Kind, What: r.What, X: r.X, Y: r.Y, W: r.W, H: r.H}
		}),
		Focus: ptr(s.Focus, func(f agent.Focus) focusV2 {
			return focusV2{Role: f.Role, Name: f.Name, Submits: f.Submits, Submitter: f.Submitter}
		})}
}

func fromEvent(e agent.Event) eventV2 {
	return eventV2{Seq: e.Seq, AtMS: e.AtMS, Type: e.Type, Data: maps.Clone(e.Data)}
}

func fromAnswer(a agent.Answer) answerV2 {
	return answerV2{Condition: a.Condition, Kind: a.Kind, Raw: slices.Clone(a.Raw), Error: a.Error}
}

func fromVerdict(v agent.Verdict) verdictV2 {
	return verdictV2{Done: v.Done, Evidence: v.Evidence, Unconfirmed: v.Unconfirmed, Check: v.Check}
}

func fromSignal(s agent.Signal) signalV2 {
	return signalV2{ID: s.ID, Label: s.Label, verdictV2: fromVerdict(s.Verdict)}
}

func fromGate(g agent.Gate) gateV2 {
	conds := mapSlice(g.Conditions, func(c agent.Condition) conditionV2 {
		return conditionV2{ID: c.ID, Label: c.Label, verdictV2: fromVerdict(c.Verdict)}
	})
	if conds == nil {
		conds = []conditionV2{}
	}
	return gateV2{Done: g.Done, Conditions: conds}
}

func fromVerdicts(v agent.Verdicts) verdictsV2 {
	sigs := mapSlice(v.Signals, fromSignal)
	if sigs == nil {
		sigs = []signalV2{}
	}
	return verdictsV2{Truth: fromSignal(v.Truth), Signals: sigs, Gate: fromGate(v.Gate)}
}

func (r runV2) toDomain() agent.Run {
	return agent.Run{ID: r.ID, Task: r.Task, Created: r.Created, Source: r.Source, Spec: slices.Clone(r.Spec), Budgets: ptr(r.Budgets, budgetsV2.toDomain),
		LabHost: r.LabHost, SuiteRun: r.SuiteRun}
}

func (a attemptV2) toDomain() agent.Attempt {
	return agent.Attempt{Slug: a.Slug, Title: a.Title, Trial: a.Trial, Task: a.Task.toDomain(), Config: a.Config.toDomain(),
		Fault: a.Fault, Params: maps.Clone(a.Params), Plan: mapSlice(a.Plan, actionV2.toDomain),
		Steps: mapSlice(a.Steps, stepV2.toDomain), ModelTurns: mapSlice(a.ModelTurns, modelTurnV2.toDomain), Events: mapSlice(a.Events, eventV2.toDomain),
		Answers: mapSlice(a.Answers, answerV2.toDomain), Terminal: agent.Terminal(a.Terminal), Reason: a.Reason,
		Verdicts: a.Verdicts.toDomain(), Started: a.Started, Viewport: a.Viewport.toDomain(), EvidenceLevel: agent.EvidenceLevel(a.Evidence), Video: a.Video, Trace: a.Trace,
		BrowserLog: string(a.BrowserLog), Claim: ptr(a.Claim, claimV2.toDomain), Opening: ptr(a.Opening, trafficV2.toDomain)}
}

func fromClaim(c agent.Claim) claimV2 {
	return claimV2{Done: c.Done, Answer: c.Answer, Source: string(c.Source), Words: c.Words}
}

func (c claimV2) toDomain() agent.Claim {
	return agent.Claim{Done: c.Done, Answer: c.Answer, Source: agent.ClaimSource(c.Source), Words: c.Words}
}

func (t taskV2) toDomain() agent.Task {
	return agent.Task{Name: t.Name, Intent: t.Intent, StartURL: t.StartURL, Origins: slices.Clone(t.Origins),
		Authority: ptr(t.Authority, authorityV2.toDomain), Notices: mapSlice(t.Notices, noticePlaceV2.toDomain)}
}

func (c configV2) toDomain() agent.Config {
	return agent.Config{Wait: agent.WaitMode(c.Wait), FixedWaitMS: c.FixedWaitMS, PollMS: c.PollMS,
		DeadlineMS: c.DeadlineMS, Selectors: agent.SelectorMode(c.Selectors), Budget: c.Budget,
		Retries: c.Retries, Safeguards: ptr(c.Safeguards, safeguardsV2.toDomain), Budgets: ptr(c.Budgets, budgetsV2.toDomain)}
}

func (a actionV2) toDomain() agent.Action {
	out := agent.Action{ID: a.ID, Description: a.Description, Kind: agent.ActionKind(a.Kind), Value: a.Value, Secret: a.Secret, Optional: a.Optional, Setup: a.Setup, TimeoutMS: a.TimeoutMS, Condition: a.Condition,
		Target: a.Target.toDomain()}
	if a.To != nil {
		to := a.To.toDomain()
		out.To = &to
	}
	return out
}

func (t targetV2) toDomain() agent.Target {
	out := agent.Target{Role: t.Role, Name: t.Name, Label: t.Label, Placeholder: t.Placeholder,
		TestID: t.TestID, Text: t.Text, CSS: t.CSS, Alias: t.Alias}
	// Sanity refuses a path deeper than agent.MaxFrameDepth before it is mapped.
	out.Frames, _ = agent.FramesOf(mapSlice(t.Frame, func(f frameV2) agent.FrameRef { return agent.FrameRef{Title: f.Title, Name: f.Name, CSS: f.CSS} }))
	if c := t.Within; c != nil {
		out.Within = agent.Container{Role: c.Role, Name: c.Name, TestID: c.TestID, CSS: c.CSS}
	}
	return out
}

func (s stepV2) toDomain() agent.Step {
	d := s.Decision
	return agent.Step{Index: s.Index, Action: s.Action.toDomain(), Provenance: agent.Provenance(s.Provenance), Reason: s.Reason,
		Evidence: s.Evidence, Decision: agent.Decision{Class: agent.ActionClass(d.Class), Admission: agent.Admission(d.Admission), Reason: d.Reason, Fingerprint: d.Fingerprint,
			Contract: agent.Contract(d.Contract), Why: d.Why, Key: d.Key, Continue: d.Continue, Review: ptr(d.Review, reviewV2.toDomain), AskUser: d.AskUser,
			RefusedByPage: d.RefusedByPage, Observed: ptr(d.Observed, fingerprintV2.toDomain), Risk: agent.Risk(d.Risk)},
		Resolved: s.Resolved, Before: s.Before.toDomain(), After: s.After.toDomain(), Distance: s.Distance,
		StartMS: s.StartMS, DurationMS: s.DurationMS, Blocked: slices.Clone(s.Blocked), Error: s.Error,
		Transfers: mapSlice(s.Transfers, func(t transferV2) agent.Transfer {
			return agent.Transfer{Kind: agent.ActionKind(t.Kind), Offered: t.Offered, Saved: t.Saved, Bytes: t.Bytes}
		}),
		Guidance: s.Guidance, Output: s.Output, Approvals: mapSlice(s.Approvals, approvalV2.toDomain), Reconciliation: ptr(s.Reconciliation, reconciliationV2.toDomain),
		ModelTurns: mapSlice(s.ModelTurns, modelTurnV2.toDomain),
		TargetBox:  ptr(s.TargetBox, boxV2.toDomain), Candidates: mapSlice(s.Candidates, candidateV2.toDomain), Unresolved: s.Unresolved,
		Traffic: s.trafficV2.toDomain()}
}

func (s sampleV2) toDomain() agent.Sample {
	return agent.Sample{Seq: s.Seq, AtMS: s.AtMS, URL: s.URL, Title: s.Title, DialogOpen: s.DialogOpen,
		Fields: mapSlice(s.Fields, func(f fieldV2) agent.Field {
			return agent.Field{Role: f.Role, Name: f.Name, Value: f.Value, Invalid: f.Invalid}
		}),
		Notice: s.Notice, Alert: s.Alert, Rows: cloneRows(s.Rows), FormPresent: s.FormPresent, FormValid: s.FormValid,
		Pairs: mapSlice(s.Pairs, func(p roleNameV2) agent.RoleName { return agent.RoleName{Role: p.Role, Name: p.Name} }),
		Text:  s.Text, Principal: s.Principal, Facts: mapSlice(s.Facts, factV2.toDomain), Version: s.Version, Screenshot: s.Screenshot,
		Notices:  mapSlice(s.Notices, factV2.toDomain),
		Frames:   mapSlice(s.Frames, frameViewV2.toDomain),
		Viewport: s.Viewport.toDomain(), Tab: s.Tab, JSDialog: ptr(s.JSDialog, func(d jsDialogV2) agent.PendingDialog { return agent.PendingDialog(d) }), ScreenshotSize: s.ScreenshotSize.toDomain(), PixelRatio: s.PixelRatio,
		DOM: s.DOM, DOMSkipped: s.DOMSkipped,
		Unreadable: mapSlice(s.Unreadable, func(r regionV2) agent.Region {
			return agent.Region{Kind: r.Kind, What: r.What, X: r.X, Y: r.Y, W: r.W, H: r.H}
		}),
		Focus: ptr(s.Focus, func(f focusV2) agent.Focus {
			return agent.Focus{Role: f.Role, Name: f.Name, Submits: f.Submits, Submitter: f.Submitter}
		})}
}

func (e eventV2) toDomain() agent.Event {
	return agent.Event{Seq: e.Seq, AtMS: e.AtMS, Type: e.Type, Data: maps.Clone(e.Data)}
}

func (a answerV2) toDomain() agent.Answer {
	return agent.Answer{Condition: a.Condition, Kind: a.Kind, Raw: slices.Clone(a.Raw), Error: a.Error}
}

func (v verdictV2) toDomain() agent.Verdict {
	return agent.Verdict{Done: v.Done, Evidence: v.Evidence, Unconfirmed: v.Unconfirmed, Check: v.Check}
}

func (s signalV2) toDomain() agent.Signal {
	return agent.Signal{ID: s.ID, Label: s.Label, Verdict: s.verdictV2.toDomain()}
}

func (g gateV2) toDomain() agent.Gate {
	return agent.Gate{Done: g.Done, Conditions: mapSlice(g.Conditions, func(c conditionV2) agent.Condition {
		return agent.Condition{ID: c.ID, Label: c.Label, Verdict: c.verdictV2.toDomain()}
	})}
}

func (v verdictsV2) toDomain() agent.Verdicts {
	return agent.Verdicts{Truth: v.Truth.toDomain(), Signals: mapSlice(v.Signals, signalV2.toDomain), Gate: v.Gate.toDomain()}
}

// Version 1 to the domain: the reservation task becomes an intent, the four columns become
// ground truth and two signals, and the save latency an attempt parameter.

func (r runV1) toDomain() agent.Run {
	return agent.Run{ID: r.ID, Task: r.Lab, Created: r.Created, Source: r.Source}
}

func (a attemptV1) toDomain(lab string) agent.Attempt {
	v := a.Verdicts
	return agent.Attempt{Slug: a.Slug, Title: a.Title,
		Task:   agent.Task{Name: lab, Intent: V1Intent(a.Task.Title, a.Task.Room), StartURL: "/"},
		Config: a.Config.configV2.toDomain(), Params: map[string]int{v1Latency: a.Config.LatencyMS},
		Plan: mapSlice(a.Plan, actionV2.toDomain), Steps: mapSlice(a.Steps, stepV2.toDomain),
		Events: mapSlice(a.Events, eventV2.toDomain), Terminal: agent.Terminal(a.Terminal), Reason: a.Reason,
		Verdicts: V1Verdicts(v.SavedAsAsked.toDomain(), v.Notice.toDomain(), v.Parallax.toDomain(), v.Gate.toDomain()),
		Started:  a.Started, Video: a.Video, Trace: a.Trace}
}

// V1Verdicts maps version 1's four verdict columns, as stored JSON text decodes them, to the
// domain's. The store's migration of a version 1 database uses it.
func V1Verdicts(saved, notice, parallax agent.Verdict, gate agent.Gate) agent.Verdicts {
	return agent.Verdicts{
		Truth: agent.Signal{ID: "truth", Label: v1Truth, Verdict: saved},
		Signals: []agent.Signal{
			{ID: v1Notice, Label: v1NoticeLabel, Verdict: notice},
			{ID: v1Parallax, Label: v1ParallaxLabel, Verdict: parallax},
		},
		Gate: gate}
}

func mapSlice[S ~[]E, E, T any](in S, f func(E) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, e := range in {
		out[i] = f(e)
	}
	return out
}

func cloneRows(rows [][]string) [][]string {
	return mapSlice(rows, func(r []string) []string { return slices.Clone(r) })
}

func fromSize(s *agent.Size) *sizeV2 {
	if s == nil {
		return nil
	}
	return &sizeV2{Width: s.Width, Height: s.Height}
}

func (s *sizeV2) toDomain() *agent.Size {
	if s == nil {
		return nil
	}
	return &agent.Size{Width: s.Width, Height: s.Height}
}

func fromFrameView(f agent.FrameView) frameViewV2 {
	return frameViewV2{URL: f.URL, Text: f.Text,
		Path:  mapSlice(f.Path, func(r agent.FrameRef) frameV2 { return frameV2{Title: r.Title, Name: r.Name, CSS: r.CSS} }),
		Pairs: mapSlice(f.Pairs, func(p agent.RoleName) roleNameV2 { return roleNameV2{Role: p.Role, Name: p.Name} }),
		Fields: mapSlice(f.Fields, func(x agent.Field) fieldV2 {
			return fieldV2{Role: x.Role, Name: x.Name, Value: x.Value, Invalid: x.Invalid}
		}),
	}
}

func (f frameViewV2) toDomain() agent.FrameView {
	return agent.FrameView{URL: f.URL, Text: f.Text,
		Path:  mapSlice(f.Path, func(r frameV2) agent.FrameRef { return agent.FrameRef{Title: r.Title, Name: r.Name, CSS: r.CSS} }),
		Pairs: mapSlice(f.Pairs, func(p roleNameV2) agent.RoleName { return agent.RoleName{Role: p.Role, Name: p.Name} }),
		Fields: mapSlice(f.Fields, func(x fieldV2) agent.Field {
			return agent.Field{Role: x.Role, Name: x.Name, Value: x.Value, Invalid: x.Invalid}
		}),
	}
}
