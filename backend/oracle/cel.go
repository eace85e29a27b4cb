package oracle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"observatory/backend/agent"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// Bounds on evaluating one expression: CEL's runtime cost units, which decide, so that a
// verdict comes out the same live and on import whatever the machine's load (the limit is
// reached in about 60 ms here); and wall time, only a safety net far above that (at 250 ms it
// decided first on a loaded machine: a 5,000-item list read "could not confirm").
const (
	costLimit   = 250_000
	evalTimeout = 10 * time.Second
	// maxExprLen bounds an expression's source, in code points.
	maxExprLen = 4096
)

// The variables each kind of condition gives its expression.
var (
	// httpEnv: status is the HTTP status code; body the decoded JSON, or the text.
	httpEnv = newEnv(cel.Variable("status", cel.IntType), cel.Variable("body", cel.DynType))
	// sqlEnv: rows are the query's rows, each a map from column name to value.
	sqlEnv = newEnv(cel.Variable("rows", cel.ListType(cel.MapType(cel.StringType, cel.DynType))))
)

func newEnv(vars ...cel.EnvOption) *cel.Env {
	opts := append([]cel.EnvOption{
		ext.Strings(),
		cel.CrossTypeNumericComparisons(true),
		cel.ParserExpressionSizeLimit(maxExprLen),
		// Explanations read a macro's items from the call it was written as.
		cel.EnableMacroCallTracking(),
	}, vars...)
	env, err := cel.NewEnv(opts...)
	if err != nil {
		panic("oracle: building the CEL environment: " + err.Error()) // fixed declarations
	}
	return env
}

// Expr is a compiled CEL expression whose result is a bool.
type Expr struct {
	src string
	prg cel.Program
	// why is the expression compiled to explain a false result, built with it so that a
	// failed check compiles nothing; nil when it cannot be explained.
	why *program
	// says is what the task file says the expression checks, in its own words; empty when it
	// says nothing.
	says string
}

// compile parses and type-checks src in env. Anything but a bool result is refused here, so
// that a task file with a bad expression is refused when it is loaded, not when it runs.
func compile(env *cel.Env, src string) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("give a CEL expression")
	}
	ast, iss := env.Compile(src)
	if iss != nil && iss.Err() != nil {
		return nil, celIssue(iss)
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) {
		return nil, fmt.Errorf("the expression gives %s, want bool (compare it, e.g. `== true`)", t)
	}
	prg, err := env.Program(ast, cel.CostLimit(costLimit), cel.InterruptCheckFrequency(64))
	if err != nil {
		return nil, fmt.Errorf("the expression cannot run: %w", err)
	}
	why, _ := explainedAST(env, ast, "") // without it, a false result says notHeld
	return &Expr{src: src, prg: prg, why: why}, nil
}

// celIssue is the first of a compilation's errors as one line: "undeclared reference to
// 'bdy' (column 1)".
func celIssue(iss *cel.Issues) error {
	errs := iss.Errors()
	if len(errs) == 0 {
		return iss.Err()
	}
	e := errs[0]
	msg := strings.TrimSuffix(e.Message, " (in container '')")
	if col := e.Location.Column(); col >= 0 {
		msg += fmt.Sprintf(" (column %d)", col+1)
	}
	return errors.New(msg)
}

// String is the expression's source.
func (e *Expr) String() string { return e.src }

// eval runs the expression on vars within the cost limit and the time bound.
func (e *Expr) eval(vars map[string]any) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), evalTimeout)
	defer cancel()
	out, _, err := e.prg.ContextEval(ctx, vars)
	if err != nil {
		return false, fmt.Errorf("evaluating `%s`: %w", e.src, err)
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, fmt.Errorf("evaluating `%s` gave %v, not a bool", e.src, out.Value())
	}
	return b, nil
}

// celCheck is what a condition judged by a CEL expression shares: the expression, with the
// task file's words for it, recorded on every verdict.
type celCheck struct{ expr *Expr }

// Say gives the condition the task file's own words for what its expression checks.
func (c *celCheck) Say(says string) { c.expr = c.expr.saying(says) }

// withCheck is v with the expression as its Check, whatever the call.
func (c celCheck) withCheck(v agent.Verdict) agent.Verdict {
	v.Check = c.expr.String()
	return v
}

// saying is e with the task file's own words for what it checks.
func (e *Expr) saying(says string) *Expr {
	c := *e
	c.says = strings.TrimSpace(says)
	return &c
}

// verdict runs the expression and says in words what it found, after what (the status, the
// rows): as wanted, or why not from the values it saw; the task file's own words for it, when
// it gives them, come first. "Could not confirm" when it cannot be evaluated on this answer (a
// missing key, a wrong type). The caller records the expression as the verdict's Check (see
// celCheck.withCheck).
func (e *Expr) verdict(vars map[string]any, what string) (agent.Verdict, error) {
	ok, err := e.eval(vars)
	if err != nil {
		return agent.Verdict{}, err
	}
	v := agent.Verdict{Done: ok}
	switch {
	case ok && e.says != "":
		v.Evidence = fmt.Sprintf("%s: %s", what, e.says)
	case ok:
		v.Evidence = what + ", as wanted"
	default:
		v.Evidence = fmt.Sprintf("%s: %s", what, explain(e.why, vars))
		if e.says != "" {
			v.Evidence += fmt.Sprintf(" (want: %s)", e.says)
		}
	}
	return v, nil
}
