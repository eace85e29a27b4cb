package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Approver asks the user whether one irreversible action may run, immediately before it
// runs. Only its answer counts as approval: nothing the page shows ever does.
type Approver interface {
	// Approve returns the user's answer. It should return when ctx ends; the executor stops
	// waiting then all the same.
	Approve(ctx context.Context, req ApprovalRequest) (ApprovalAnswer, error)
}

// ApprovalAnswer is the user's answer to an approval request.
type ApprovalAnswer string

// Answers. AnswerNone is no answer: the user held the action, or did not answer in time.
const (
	AnswerApprove ApprovalAnswer = "approve"
	AnswerDeny    ApprovalAnswer = "deny"
	AnswerNone    ApprovalAnswer = "none"
)

// ApprovalRequest states in the user's language what approving would let happen: the
// control, the recipient, the data and amount it sends, and that it cannot be undone, with
// the page's screenshot. Hash binds an approval to exactly these details.
type ApprovalRequest struct {
	// Step is the index of the step that asks.
	Step int `json:"step"`
	// Action is the step's description ("Send the message"); Target the control it uses.
	Action string `json:"action"`
	Target string `json:"target"`
	// Recipient and Amount are the form's values that name who receives it and how much,
	// when it has such fields.
	Recipient string `json:"recipient,omitempty"`
	Amount    string `json:"amount,omitempty"`
	// Data are the form's fields as the action would send them.
	Data []Field `json:"data"`
	// Principal is the signed-in account the action runs as, and Facts the task's relevant
	// text, as observed when asking; empty when the task declares none.
	Principal string `json:"principal,omitempty"`
	Facts     []Fact `json:"facts,omitempty"`
	// Permanence says what cannot be undone.
	Permanence string `json:"permanence"`
	URL        string `json:"url"`
	// Screenshot is the page as the request was made, relative to the run's media folder;
	// TargetBox is where the control was on it, measured just before asking, so a viewer
	// can mark it there; nil when it could not be measured. Neither is a detail approved.
	Screenshot string `json:"screenshot,omitempty"`
	TargetBox  *Box   `json:"target_box,omitempty"`
	Hash       string `json:"hash"`
	// Again says why the user is asked again: what changed since their last approval.
	Again string `json:"again,omitempty"`
	// Effect states what approving would do in the task's terms (the action, as whom, to
	// whom, how much, where); Compared compares each of those with what the task asked
	// (see Compare); Why is the rule that requires the approval. None is a detail approved.
	Effect   string       `json:"effect,omitempty"`
	Compared []Comparison `json:"compared,omitempty"`
	Why      string       `json:"why,omitempty"`
}

// Approval is one approval request and what came of it, as recorded in its step.
type Approval struct {
	Request ApprovalRequest `json:"request"`
	Answer  ApprovalAnswer  `json:"answer"`
	// Note says why there was no answer, or why an approval was void (what changed).
	Note string `json:"note,omitempty"`
	// AskedMS and AnsweredMS are milliseconds since the attempt started.
	AskedMS    int64 `json:"asked_ms"`
	AnsweredMS int64 `json:"answered_ms"`
	// Void means the details changed between the approval and the commit, so it was not used.
	Void bool `json:"void,omitempty"`
	// CommitHash is, for an approved request, the hash of the details observed immediately
	// before the commit: the request's own Hash when the commit ran on what was approved,
	// another (and Void) when they changed. Empty for a request not approved.
	CommitHash string `json:"commit_hash,omitempty"`
	// By says who answered ("terminal", "window (serve, pid 4242)"); empty when nobody did
	// or the approver does not say (see Witness).
	By string `json:"by,omitempty"`
	// Refused are the answers refused while it was asked: the agent's side answering itself.
	Refused []RefusedAnswer `json:"refused,omitempty"`
}

// reply is an approver's reply.
type reply struct {
	got Answered
	err error
}

// lateGrace is how long an approver whose question ended unanswered has to return whom it
// refused.
const lateGrace = time.Second

// DefaultApprovalLimit is how long the user has to answer when the task sets no limit.
const DefaultApprovalLimit = time.Minute

// maxAsks is how many times one action asks before the executor gives up on details that
// keep changing under the user.
const maxAsks = 3

var (
	recipientField = regexp.MustCompile(`(?i)^(to|recipients?|send to|email|e-mail|payee|cc|bcc)\b`)
	amountField    = regexp.MustCompile(`(?i)\b(amount|total|price|sum|quantity)\b`)
)

// DescribeApproval states what approving action a on page s would let happen.
func DescribeApproval(step int, a Action, class ActionClass, s Sample) ApprovalRequest {
	req := ApprovalRequest{Step: step, Action: a.Description, Target: a.Target.String(), URL: s.URL,
		Data: append([]Field{}, s.Fields...), Screenshot: s.Screenshot, Principal: s.Principal, Facts: append([]Fact(nil), s.Facts...)}
	if req.Target == "" {
		req.Target = fmt.Sprintf("%s %q", a.Kind, a.Value)
	}
	for _, f := range s.Fields {
		switch {
		case req.Recipient == "" && recipientField.MatchString(f.Name):
			req.Recipient = f.Value
		case req.Amount == "" && amountField.MatchString(f.Name):
			req.Amount = f.Value
		}
	}
	for _, f := range s.Facts {
		switch {
		case req.Recipient == "" && recipientField.MatchString(f.ID):
			req.Recipient = f.Value
		case req.Amount == "" && amountField.MatchString(f.ID):
			req.Amount = f.Value
		}
	}
	req.Permanence = "This cannot be undone: once it runs, its effect is outside this page."
	if class == ClassDestruct {
		req.Permanence = "This destroys something for good: it cannot be undone."
	}
	req.Hash = req.DetailsHash()
	return req
}

// DetailsHash condenses every detail the user approves, as Hash records it; the screenshot,
// the target's box and the step are not details. A replay recomputes it from the recorded
// details.
func (q ApprovalRequest) DetailsHash() string {
	fields := make([]string, len(q.Data))
	for i, f := range q.Data {
		fields[i] = f.Role + "[" + f.Name + "]=" + f.Value
	}
	sort.Strings(fields)
	facts := make([]string, len(q.Facts))
	for i, f := range q.Facts {
		facts[i] = f.ID + "=" + f.Value
	}
	sort.Strings(facts)
	parts := []string{q.Action, q.Target, q.Recipient, q.Amount, q.Permanence, q.URL, strings.Join(fields, "\x1f"),
		q.Principal, strings.Join(facts, "\x1f")}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x1e")))
	return hex.EncodeToString(sum[:8])
}

// Changes names what differs between the details q was approved with and now, in the user's
// words ("the recipient changed from a@x to b@y").
func (q ApprovalRequest) Changes(now ApprovalRequest) string {
	var out []string
	if q.Principal != now.Principal {
		out = append(out, fmt.Sprintf("the signed-in account changed from %q to %q", q.Principal, now.Principal))
	}
	if q.Recipient != now.Recipient {
		out = append(out, fmt.Sprintf("the recipient changed from %q to %q", q.Recipient, now.Recipient))
	}
	if q.Amount != now.Amount {
		out = append(out, fmt.Sprintf("the amount changed from %q to %q", q.Amount, now.Amount))
	}
	if q.URL != now.URL {
		out = append(out, fmt.Sprintf("the page changed from %s to %s", q.URL, now.URL))
	}
	before := map[string]string{}
	for _, f := range q.Data {
		before[f.Name] = f.Value
	}
	for _, f := range now.Data {
		if v, ok := before[f.Name]; (!ok || v != f.Value) && !recipientField.MatchString(f.Name) && !amountField.MatchString(f.Name) {
			out = append(out, fmt.Sprintf("%s changed", f.Name))
		}
	}
	was := map[string]string{}
	for _, f := range q.Facts {
		was[f.ID] = f.Value
	}
	for _, f := range now.Facts {
		v := was[f.ID]
		reported := (v == q.Amount && f.Value == now.Amount) || (v == q.Recipient && f.Value == now.Recipient)
		if v != f.Value && !reported {
			out = append(out, fmt.Sprintf("the %s changed from %q to %q", f.ID, v, f.Value))
		}
	}
	if len(out) == 0 {
		return "the details changed"
	}
	return strings.Join(out, "; ")
}

// approve asks for the user's approval of a, whose target has been resolved, and confirms
// that nothing changed between the approval and the commit: it moves the pointer onto the
// control, as a person would, observes the page again and compares. Changed details void the
// approval and it asks again. Each card compares the action with what the task asked (the
// account it acts for, and the action as planned on the step's page); an action acting as
// another account stops unless the task allows re-authorization. A non-empty terminal means
// the action must not run.
func (r *run) approve(s *Step, a Action) (Terminal, string) {
	limit, reauthorize := DefaultApprovalLimit, false
	if g := r.cfg.Safeguards; g != nil && g.Approval != nil {
		limit, reauthorize = ms(g.Approval.LimitMS), g.Approval.Reauthorize
	}
	principal := PlanPrincipal(r.steps, s.Before)
	asked := DescribeApproval(s.Index, a, s.Decision.Class, s.Before)
	page, again := s.Before, ""
	for n := 1; ; n++ {
		req := DescribeApproval(s.Index, a, s.Decision.Class, page)
		req.Compare(principal, asked, BasisPlanned)
		if req.PrincipalChanged() && !reauthorize {
			stop := AuthorityStop(principal, req.Principal)
			if again != "" {
				stop = "the approval is void (" + again + "); " + stop
			}
			return Rejected, fmt.Sprintf("step %d (%s) stopped: %s", s.Index+1, a.Description, stop)
		}
		req.Why = whyAsked(r.cfg.Safeguards, s.Decision.Class, a.Kind, req.PrincipalChanged())
		req.Again, req.TargetBox = again, r.measure(a.Target)
		rec := Approval{Request: req, AskedMS: r.sinceStart()}
		r.ask(&rec, limit)
		rec.AnsweredMS = r.sinceStart()
		s.Approvals = append(s.Approvals, rec)
		switch rec.Answer {
		case AnswerDeny:
			return Rejected, fmt.Sprintf("step %d (%s): approval %s", s.Index+1, a.Description, rec.Note)
		case AnswerNone:
			if r.gone() != nil && !r.cancelled() { // the page died while the user was asked
				return r.interrupted(fmt.Sprintf("step %d (%s), waiting for approval", s.Index+1, a.Description))
			}
			return Rejected, fmt.Sprintf("step %d (%s): approval %s", s.Index+1, a.Description, rec.Note)
		}
		fresh, err := r.approach(a)
		if err != nil {
			t, err := r.fail(err, ClassObserve)
			s.Error = err.Error()
			return t, fmt.Sprintf("step %d (%s): observing the page after approval failed: %v", s.Index+1, a.Description, err)
		}
		now := DescribeApproval(s.Index, a, s.Decision.Class, fresh)
		last := &s.Approvals[len(s.Approvals)-1]
		last.CommitHash = now.Hash
		if now.Hash == req.Hash {
			return "", ""
		}
		again = req.Changes(now)
		last.Void, last.Note = true, last.Note+", then void before the commit: "+again
		if n == maxAsks {
			return Rejected, fmt.Sprintf("step %d (%s): the details changed after each of %d approvals", s.Index+1, a.Description, n)
		}
		page = fresh
	}
}

// approach moves the pointer onto the target of a click or submit, which a page may react
// to, and observes the page as it now is, immediately before the commit.
func (r *run) approach(a Action) (Sample, error) {
	if (a.Kind == ActClick || a.Kind == ActSubmit) && !a.Target.IsZero() {
		if err := r.page.Act(r.ctx, Action{ID: a.ID, Description: "move to " + a.Description, Kind: ActHover, Target: a.Target}); err != nil {
			return Sample{}, err
		}
	}
	return r.observe()
}

// ask puts rec's request to the approver and waits up to limit for its answer, which it
// records in rec with who gave it, whom the approver refused, and how it ended in words (see
// Ended). No approver, an error, an answer other than approve or deny, or the limit passing is
// no answer, held with why.
func (r *run) ask(rec *Approval, limit time.Duration) {
	answer, why := r.answer(rec, limit)
	rec.Answer, rec.Note = answer, Ended(answer, rec.By, why)
}

// answer is ask's answer and, for one held, why, as Ended words it after "held: ".
func (r *run) answer(rec *Approval, limit time.Duration) (ApprovalAnswer, string) {
	if r.x.Approver == nil {
		return AnswerNone, "nobody to ask (this run has no approver)"
	}
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	replies := make(chan reply, 1)
	go func() {
		got, err := AnswerOf(ctx, r.x.Approver, rec.Request)
		replies <- reply{got, err}
	}()
	expired := make(chan struct{})
	go func() {
		if r.x.sleepCtx(ctx, limit) == nil {
			close(expired)
		}
	}()
	select {
	case rp := <-replies:
		r.record(rec, rp.got)
		var held NoAnswer
		switch a := rp.got.Answer; {
		case errors.As(rp.err, &held):
			return AnswerNone, held.Why
		case rp.err != nil:
			return AnswerNone, "the approver failed: " + rp.err.Error()
		case a == AnswerApprove, a == AnswerDeny:
			return a, ""
		case a == AnswerNone:
			return AnswerNone, "you held it"
		}
		return AnswerNone, fmt.Sprintf("the approver answered %q", rp.got.Answer)
	case <-expired:
		r.late(rec, cancel, replies)
		return AnswerNone, "no answer within " + within(limit)
	case <-r.ctx.Done():
		r.late(rec, cancel, replies)
		return AnswerNone, "the attempt was stopped while waiting for the answer"
	}
}

// late records whom the approver refused while a question went unanswered: its wait is
// ended (cancel), and its reply taken if it comes within lateGrace; its answer is not.
func (r *run) late(rec *Approval, cancel context.CancelFunc, replies <-chan reply) {
	cancel()
	select {
	case rp := <-replies:
		r.record(rec, Answered{Refused: rp.got.Refused})
	case <-time.After(lateGrace):
	}
}

// sleepCtx waits d on the executor's clock, or until ctx ends.
func (x *Executor) sleepCtx(ctx context.Context, d time.Duration) error {
	if x.Sleep != nil {
		return x.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
