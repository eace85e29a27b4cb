package harness

import (
	"context"
	"fmt"

	"github.com/google/cel-go/cel"

	"observatory/backend/agent"
)

// Rules is the reviewer that judges by the policy's CEL rules. Each rule is an expression
// over `action` (kind, description, target, value, contract, class) and `page` (url, title,
// text, notice, alert, and fields, a list of {role, name, value}); the first that holds is a
// caution with its reason. A rule that does not compile or evaluate to a bool makes the
// reviewer unavailable, never clear.
type Rules struct{}

var _ Reviewer = Rules{}

// reviewEnv declares the two variables rules read.
var reviewEnv = func() *cel.Env {
	env, err := cel.NewEnv(
		cel.Variable("action", cel.MapType(cel.StringType, cel.StringType)),
		cel.Variable("page", cel.MapType(cel.StringType, cel.DynType)),
	)
	if err != nil {
		panic(err) // the declarations are fixed; this cannot fail at run time
	}
	return env
}()

// CheckRule compiles expr as a review rule and says what is wrong with it, or nil.
func CheckRule(expr string) error {
	_, err := compileRule(expr)
	return err
}

func compileRule(expr string) (cel.Program, error) {
	ast, iss := reviewEnv.Compile(expr)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	if ast.OutputType() != cel.BoolType {
		return nil, fmt.Errorf("the rule gives %s, want a bool", ast.OutputType())
	}
	return reviewEnv.Program(ast)
}

// Review evaluates the spec's rules on the action and page.
func (Rules) Review(_ context.Context, req ReviewRequest) (agent.Review, error) {
	vars := map[string]any{"action": actionVars(req), "page": pageVars(req.Page)}
	for i, rule := range req.Spec.Rules {
		prg, err := compileRule(rule.Expr)
		if err != nil {
			return agent.Review{}, fmt.Errorf("rule %d: %w", i+1, err)
		}
		out, _, err := prg.Eval(vars)
		if err != nil {
			return agent.Review{}, fmt.Errorf("rule %d: %w", i+1, err)
		}
		if hit, ok := out.Value().(bool); ok && hit {
			return agent.Review{Reviewer: agent.ReviewerRules, Verdict: agent.ReviewCaution, Reason: rule.Reason}, nil
		}
	}
	return agent.Review{Reviewer: agent.ReviewerRules, Verdict: agent.ReviewClear,
		Reason: fmt.Sprintf("none of the %d rule(s) of the policy holds", len(req.Spec.Rules))}, nil
}

func actionVars(req ReviewRequest) map[string]string {
	a := req.Action.Redacted()
	return map[string]string{"kind": string(a.Kind), "description": a.Description, "target": a.Target.String(),
		"value": a.Value, "contract": string(req.Contract), "class": string(req.Class)}
}

func pageVars(s agent.Sample) map[string]any {
	fields := make([]map[string]string, len(s.Fields))
	for i, f := range s.Fields {
		fields[i] = map[string]string{"role": f.Role, "name": f.Name, "value": f.Value}
	}
	return map[string]any{"url": s.URL, "title": s.Title, "text": s.Text, "notice": s.Notice,
		"alert": s.Alert, "fields": fields}
}
