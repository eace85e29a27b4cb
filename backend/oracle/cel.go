package oracle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// Bounds on evaluating one expression: CEL's runtime cost units, and wall time.
const (
	costLimit   = 1_000_000
	evalTimeout = 250 * time.Millisecond
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
	return &Expr{src: src, prg: prg}, nil
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

// verdict runs the expression and says what it found: done when it holds, "could not
// confirm" when it cannot be evaluated on this answer (a missing key, a wrong type).
func (e *Expr) verdict(vars map[string]any, what string) (done bool, evidence string, unconfirmed error) {
	ok, err := e.eval(vars)
	if err != nil {
		return false, "", err
	}
	if ok {
		return true, fmt.Sprintf("%s: `%s` holds", what, e.src), nil
	}
	return false, fmt.Sprintf("%s: `%s` does not hold", what, e.src), nil
}
