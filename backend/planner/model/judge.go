package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"observatory/backend/agent"
)

// Judge is a model judge signal's asker: once an attempt has ended, it shows a model the
// intent word for word, the recorded actions, the final page and some of the screenshots,
// following one of agent.Recipes, and reads its verdict from one call of the verdict tool
// ({done, reason}). Its models are asked in order until one gives a verdict; each is retried
// (timeouts, 5xx, rate limits) a bounded number of times with backoff, and one that never
// answers is given up on after its retries. What it could not get is "could not confirm":
// the answer's Error, never a guess.
type Judge struct {
	asked
	rec Recovery
	// sleep waits between retries; now times requests (tests replace them).
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
}

var _ agent.JudgeAsker = (*Judge)(nil)

// NewJudge returns the judge asking cfg's models in order, each request bounded by
// cfg.Recovery.RequestTimeout and retried cfg.Recovery.Retries times (DefaultConfig's when
// zero). Each model's key is read now; a model whose key is missing is not asked, and says
// so in the answer's error. Nil when cfg has no model.
func NewJudge(cfg Config) *Judge {
	if len(cfg.Models) == 0 {
		return nil
	}
	cfg = cfg.withDefaults()
	return &Judge{asked: askModels(cfg.Models), rec: cfg.Recovery, sleep: sleepCtx, now: time.Now}
}

// AskJudge asks for the verdict on req and returns the answer to record: the reply, or why
// no model gave one, with what asking spent either way.
func (j *Judge) AskJudge(ctx context.Context, req agent.JudgeRequest) agent.Answer {
	ans := agent.Answer{Condition: req.Signal, Kind: agent.AnswerJudge}
	rep := agent.JudgeReply{Recipe: req.Recipe}
	var errs []string
	for i := range j.providers {
		m := j.models[i]
		if j.broken[i] != nil {
			errs = append(errs, j.broken[i].Error())
			continue
		}
		rep.Model = m.Name()
		err := j.judgeWith(ctx, i, req, &rep)
		if err == nil {
			ans.Raw, _ = json.Marshal(rep)
			return ans
		}
		errs = append(errs, m.Name()+": "+err.Error())
		if ctx.Err() != nil {
			break
		}
	}
	ans.Error = clip(strings.Join(errs, "; "), 1000)
	if rep.InTokens+rep.OutTokens > 0 || rep.Retries > 0 {
		rep.Done, rep.Reason = false, ""
		ans.Raw, _ = json.Marshal(rep)
	}
	return ans
}

// judgeWith follows req's recipe with model i, adding what it spent to rep.
func (j *Judge) judgeWith(ctx context.Context, i int, req agent.JudgeRequest, rep *agent.JudgeReply) error {
	t0 := j.now()
	defer func() { rep.LatencyMS += j.now().Sub(t0).Milliseconds() }()
	shots := lastShots(req)
	if req.Recipe == agent.RecipeKeyPoints {
		res, err := j.call(ctx, i, keyPointsAsk(req), rep)
		if err != nil {
			return err
		}
		points, err := readKeyPoints(res)
		if err != nil {
			return err
		}
		rep.KeyPoints = clip(points, maxKeyPoints)
		shots = keyShots(req)
	}
	ask, summary := verdictAsk(req, rep.KeyPoints, shots)
	rep.Request = summary
	res, err := j.call(ctx, i, ask, rep)
	if err != nil {
		return err
	}
	rep.Text = clip(res.Text, maxJudgeText)
	return readJudgeVerdict(res, rep)
}

// call sends one request to model i, retrying timeouts, server errors and rate limits with
// backoff up to the recovery's bound, and counts every reply's usage into rep.
func (j *Judge) call(ctx context.Context, i int, req request, rep *agent.JudgeReply) (response, error) {
	m := j.models[i]
	for try := 0; ; try++ {
		rctx, cancel := context.WithTimeout(ctx, j.rec.RequestTimeout)
		res, err := j.providers[i].complete(rctx, req)
		timedOut := errors.Is(rctx.Err(), context.DeadlineExceeded)
		cancel()
		rep.InTokens += res.InTokens
		rep.OutTokens += res.OutTokens
		rep.CostUSD += m.cost(res.InTokens, res.OutTokens)
		var perr *providerError
		switch {
		case ctx.Err() != nil:
			return res, ctx.Err()
		case timedOut:
			perr = &providerError{Kind: errTransient, Message: fmt.Sprintf("no answer within %s", j.rec.RequestTimeout), NoAnswer: true}
		case err == nil && res.Refusal != "":
			return res, fmt.Errorf("the model refused: %s", clip(res.Refusal, 200))
		case err == nil:
			return res, nil
		case !errors.As(err, &perr):
			perr = &providerError{Kind: errTransient, Message: clip(err.Error(), 300)}
		}
		if perr.Kind == errBroken || try >= j.rec.Retries {
			if try > 0 {
				return res, fmt.Errorf("%v, after %d retries", perr, try)
			}
			return res, perr
		}
		d := j.backoff(try+1, perr.RetryAfter)
		rep.Retries++
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %v; retry %d of %d in %s", m.Name(), perr, try+1, j.rec.Retries, d.Round(time.Millisecond)))
		if err := j.sleep(ctx, d); err != nil {
			return res, err
		}
	}
}

// backoff is the delay before retry n: the recovery's backoff doubled each retry up to its
// bound, or the provider's Retry-After when longer, up to the same bound.
func (j *Judge) backoff(n int, retryAfter time.Duration) time.Duration {
	d := min(j.rec.Backoff<<min(n-1, 16), j.rec.MaxBackoff)
	return min(max(d, retryAfter), j.rec.MaxBackoff)
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// readJudgeVerdict reads the verdict from the model's reply into rep: exactly one call of
// the verdict tool, with done and a reason.
func readJudgeVerdict(res response, rep *agent.JudgeReply) error {
	args, err := oneCall(res, toolJudgeVerdict)
	if err != nil {
		return err
	}
	var v struct {
		Done   *bool  `json:"done"`
		Reason string `json:"reason"`
	}
	if err := strictArgs(args, &v); err != nil {
		return err
	}
	v.Reason = strings.TrimSpace(v.Reason)
	switch {
	case v.Done == nil:
		return errors.New("the verdict does not say done or not")
	case v.Reason == "":
		return errors.New("the verdict gives no reason")
	}
	rep.Done, rep.Reason = *v.Done, clip(v.Reason, maxVerdict)
	return nil
}

// readKeyPoints reads the key points from the model's reply: one call of the key-points tool.
func readKeyPoints(res response) (string, error) {
	args, err := oneCall(res, toolKeyPoints)
	if err != nil {
		return "", err
	}
	var v struct {
		Points []string `json:"points"`
	}
	if err := strictArgs(args, &v); err != nil {
		return "", err
	}
	var lines []string
	for _, p := range v.Points {
		if p = strings.TrimSpace(p); p != "" {
			lines = append(lines, "- "+p)
		}
	}
	if len(lines) == 0 {
		return "", errors.New("the model named no key points")
	}
	return strings.Join(lines, "\n"), nil
}

// oneCall returns the arguments of the reply's one call of the named tool.
func oneCall(res response, name string) (string, error) {
	if len(res.Calls) != 1 || res.Calls[0].Name != name {
		names := make([]string, len(res.Calls))
		for i, c := range res.Calls {
			names[i] = c.Name
		}
		return "", fmt.Errorf("the model did not answer with one call of %s (it called %v and said %q)", name, names, clip(res.Text, 200))
	}
	return res.Calls[0].Args, nil
}

// strictArgs decodes a call's arguments, refusing fields the tool does not have.
func strictArgs(args string, v any) error {
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the call's arguments %q are malformed: %v", clip(args, 200), err)
	}
	return nil
}
