package oracle

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"google.golang.org/protobuf/types/known/structpb"
)

// Pick is a compiled CEL expression over an HTTP response (status, body) whose value, any
// JSON value, is what the condition keeps of the body: the evidence bound applies to it,
// not to the whole response.
type Pick struct {
	src string
	prg cel.Program
}

// compilePick parses and type-checks src in the HTTP environment.
func compilePick(src string) (*Pick, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("give a CEL expression")
	}
	ast, iss := httpEnv.Compile(src)
	if iss != nil && iss.Err() != nil {
		return nil, celIssue(iss)
	}
	prg, err := httpEnv.Program(ast, cel.CostLimit(costLimit), cel.InterruptCheckFrequency(64))
	if err != nil {
		return nil, fmt.Errorf("the expression cannot run: %w", err)
	}
	return &Pick{src: src, prg: prg}, nil
}

// of evaluates the pick on a response and returns its value as plain JSON data.
func (p *Pick) of(status int, body any) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), evalTimeout)
	defer cancel()
	out, _, err := p.prg.ContextEval(ctx, map[string]any{"status": int64(status), "body": body})
	if err != nil {
		return nil, fmt.Errorf("picking `%s`: %w", p.src, err)
	}
	v, err := out.ConvertToNative(reflect.TypeOf(&structpb.Value{}))
	if err != nil {
		return nil, fmt.Errorf("picking `%s`: the value is not JSON: %w", p.src, err)
	}
	return v.(*structpb.Value).AsInterface(), nil
}
