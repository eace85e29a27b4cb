package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// HeldMethods are the request methods an outside agent's pages send only with the user's
// approval, when the task's safeguards require approval: those that change state.
var HeldMethods = []string{"POST", "PUT", "PATCH", "DELETE"}

// HeldRequest is a request a page sent that waits at the network for the user's answer.
type HeldRequest struct {
	Method, URL, Origin string
	// Body is a bounded summary of what the request sends, secret-looking values masked.
	Body string
	// Cookies are the cookies the request carries, by name: the account it acts as when
	// the task's authority reads the principal from a cookie. Never recorded.
	Cookies map[string]string
}

// RequestHolder is a Page whose network can hold requests: each request of one of methods
// that the page, or any page its context opens, sends waits for ask, and goes on only when
// ask says true; otherwise it fails as a network error the page sees. An error means the page
// cannot hold its requests (it has no network of its own to hold them at).
type RequestHolder interface {
	HoldRequests(methods []string, ask func(ctx context.Context, r HeldRequest) bool) error
}

// PartlyHeld is a RequestHolder that cannot hold every request it is asked to (the requests
// to an https origin whose TLS its network cannot read): Unheld says which go unheld and
// why, in words a user can act on; "" when none do. The attempt's reason says it.
type PartlyHeld interface {
	Unheld() string
}

// Unseen is a Driven planner whose agent acts in the page on its own (an outside agent
// process), so no approval can be asked before its actions. When the task's safeguards
// require approval, the executor holds the page's requests at the network instead, and asks
// about each: those of the methods the safeguards name, else of its HeldMethods.
type Unseen interface {
	Driven
	HeldMethods() []string
}

// holds are the approvals asked for requests held at the network, waiting for the step
// that records them.
type holds struct {
	mu      sync.Mutex
	asking  int
	answers []Approval
	// next is the index of the next step recorded, which records the answers asked now.
	next int
	// unheld says which requests the page could not hold, and why (see PartlyHeld).
	unheld string
	// principal is the first account observed, the one the task acts for, and page the
	// latest observation: what a held request's card is compared with.
	principal string
	page      Sample
}

// stepRecorded notes that n steps are recorded.
func (h *holds) stepRecorded(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next = n
}

// saw notes an observation of the page, for the cards of the requests held after it.
func (h *holds) saw(s Sample) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.principal == "" {
		h.principal = s.Principal
	}
	h.page = s
}

// holdRequests makes the page hold the requests the planner names, when the task's
// safeguards require approval and the planner acts unseen; an error when it cannot.
func (r *run) holdRequests() error {
	u, ok := r.planner.(Unseen)
	if !ok || r.cfg.Safeguards == nil || r.cfg.Safeguards.Approval == nil {
		return nil
	}
	h, ok := r.page.(RequestHolder)
	if !ok {
		return fmt.Errorf("the task's safeguards require approval, and this page cannot hold the agent's requests for it")
	}
	limit := ms(r.cfg.Safeguards.Approval.LimitMS)
	secrets := append([]string(nil), r.secrets...)
	methods := r.heldMethods(u)
	err := h.HoldRequests(methods, func(_ context.Context, q HeldRequest) bool {
		return r.askHeld(q, limit, secrets, methods)
	})
	if p, ok := r.page.(PartlyHeld); ok && err == nil {
		r.holds.unheld = p.Unheld()
	}
	return err
}

// heldMethods are the methods of the requests that may change the app's state, which an
// unseen agent's pages send only with approval when the task's safeguards require it: those
// the safeguards name, else the planner's.
func (r *run) heldMethods(u Unseen) []string {
	if m := r.cfg.heldMethods(); len(m) > 0 {
		return m
	}
	return u.HeldMethods()
}

// heldMethods are the request methods the task's safeguards hold for approval, nil when
// they name none.
func (c Config) heldMethods() []string {
	if s := c.Safeguards; s != nil && s.Approval != nil {
		return s.Approval.Methods
	}
	return nil
}

// Mutations are the requests the pages of an agent acting unseen sent, over steps, that may
// have changed the app's state: of a method c holds for approval (else of HeldMethods) that
// the network did not refuse. It returns how many, the last and the index of its step. It is
// the one rule by which such an agent's end, a crash or an interrupted process, may have
// crossed a commit.
func (c Config) Mutations(steps []Step) (n int, last Request, step int) {
	methods := c.heldMethods()
	if len(methods) == 0 {
		methods = HeldMethods
	}
	for _, s := range steps {
		for _, q := range s.Traffic.Requests {
			if !q.Refused && slices.ContainsFunc(methods, func(m string) bool { return strings.EqualFold(m, q.Method) }) {
				n, last, step = n+1, q, s.Index
			}
		}
	}
	return n, last, step
}

// askHeld asks the approver about one held request and keeps the answer for the next step.
// Its card says what the request does in the task's terms when the task names it (see
// DescribeHeld), compared with the page as last observed.
func (r *run) askHeld(q HeldRequest, limit time.Duration, secrets, methods []string) bool {
	q.URL, q.Body = maskSecrets(q.URL, secrets), maskSecrets(q.Body, secrets)
	r.holds.mu.Lock()
	r.holds.asking++
	step, principal, page := r.holds.next, r.holds.principal, r.holds.page
	r.holds.mu.Unlock()
	if p := r.authority; p != nil && p.Principal != nil && p.Principal.Cookie != "" {
		page.Principal = q.Cookies[p.Principal.Cookie] // the account the request itself acts as
	}
	req := DescribeHeld(q, r.cfg.heldMutations(), principal, page)
	req.Step = step
	req.Why = "the task's safeguards require approval, and Observatory cannot ask before its agent acts, so every " +
		strings.Join(methods, ", ") + " request the agent's pages send waits here (safeguards.approval)"
	rec := Approval{Request: req, AskedMS: r.sinceStart()}
	if req.PrincipalChanged() && !r.cfg.Safeguards.Approval.Reauthorize {
		// Not asked as if nothing happened: authority changes invalidate the plan.
		rec.Answer, rec.Note = AnswerNone, Ended(AnswerNone, "", AuthorityStop(principal, req.Principal))
	} else {
		r.ask(&rec, limit)
	}
	if rec.Answer != AnswerApprove {
		rec.Note += "; the request failed at the network: the page saw a network error"
	}
	rec.AnsweredMS = r.sinceStart()
	r.holds.mu.Lock()
	r.holds.asking--
	r.holds.answers = append(r.holds.answers, rec)
	r.holds.mu.Unlock()
	return rec.Answer == AnswerApprove
}

// heldMutations are the mutations the task names for the requests it holds for approval.
func (c Config) heldMutations() []Mutation {
	if s := c.Safeguards; s != nil && s.Approval != nil {
		return s.Approval.Mutations
	}
	return nil
}

// heldAnswers waits while a held request is being asked about (until the attempt ends),
// then returns the approvals asked for held requests since the last call.
func (r *run) heldAnswers() []Approval {
	for {
		r.holds.mu.Lock()
		if r.holds.asking == 0 || r.ctx.Err() != nil {
			out := r.holds.answers
			r.holds.answers = nil
			r.holds.mu.Unlock()
			return out
		}
		r.holds.mu.Unlock()
		select {
		case <-r.ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}
