package oracle

import (
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/parser"
)

// Bounds on an explanation: the items of a list it tries, what it shows of one value, and
// its whole length, in code points.
const (
	maxExplainItems = 200
	maxValueText    = 60
	maxExplainText  = 400
)

// notHeld is what an explanation says when the expression's shape has no words of its own.
const notHeld = "the condition is false on this answer"

// program is an expression compiled to be explained: run without short-circuits, keeping
// every subexpression's value. iterVar names the item it judges; empty at the top. items
// holds, by the comprehension's ID, the program of what each of its comprehensions asks of
// one item, compiled with it (see itemPrograms), so that explaining compiles nothing.
type program struct {
	ast     *ast.AST
	prg     cel.Program
	iterVar string
	items   map[int64]*program
}

// scope is one evaluation of a program with every value it saw, and the variables it ran on.
type scope struct {
	*program
	vars  map[string]any
	state interface{ Value(int64) (ref.Val, bool) }
	// listing is how many lists of failed alternatives (see eachFailed) are being worded
	// around the current one.
	listing int
}

// explain says in words why the expression p explains, which gave false on vars, does not
// hold: which field had which value against what was wanted, how many items a list had and
// where the closest one differs. It is derived from the answer alone, bounded in cost and
// items, never in time, so that an import words it identically. A nil p (an expression that
// cannot be explained) says notHeld.
func explain(p *program, vars map[string]any) string {
	if p == nil {
		return notHeld
	}
	s, err := p.run(vars)
	if err != nil {
		return notHeld
	}
	return cut(s.why(s.ast.Expr(), true), maxExplainText)
}

// explained compiles src in env for explaining, with the programs of its comprehensions'
// items.
func explained(env *cel.Env, src, iterVar string) (*program, error) {
	checked, iss := env.Compile(src)
	if iss != nil && iss.Err() != nil {
		return nil, iss.Err()
	}
	return explainedAST(env, checked, iterVar)
}

// explainedAST is explained for an expression already compiled in env.
func explainedAST(env *cel.Env, checked *cel.Ast, iterVar string) (*program, error) {
	prg, err := env.Program(checked, cel.EvalOptions(cel.OptExhaustiveEval), cel.CostLimit(costLimit))
	if err != nil {
		return nil, err
	}
	a := checked.NativeRep()
	return &program{ast: a, prg: prg, iterVar: iterVar, items: itemPrograms(env, a)}, nil
}

// itemPrograms compiles what each comprehension of a asks of one item (see predicate), bound
// to its item variable beside env's variables. A comprehension whose predicate does not
// compile on its own (one nested in another's predicate reads the outer item; the outer's
// program explains it) has none.
func itemPrograms(env *cel.Env, a *ast.AST) map[int64]*program {
	items := map[int64]*program{}
	ast.PreOrderVisit(a.Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() != ast.ComprehensionKind {
			return
		}
		c := e.AsComprehension()
		pred := predicate(c.LoopStep())
		if pred == nil {
			return
		}
		src, err := parser.Unparse(pred, a.SourceInfo())
		if err != nil {
			return
		}
		sub, err := env.Extend(cel.Variable(c.IterVar(), cel.DynType))
		if err != nil {
			return
		}
		if p, err := explained(sub, src, c.IterVar()); err == nil {
			items[e.ID()] = p
		}
	}))
	return items
}

// run evaluates p on vars, keeping every value it saw.
func (p *program) run(vars map[string]any) (*scope, error) {
	_, det, err := p.prg.Eval(vars)
	if det == nil {
		return nil, fmt.Errorf("no evaluation state: %v", err)
	}
	return &scope{program: p, vars: vars, state: det.State()}, nil
}

// value is what e evaluated to; a literal is its own value (the state keeps none for it).
func (s *scope) value(e ast.Expr) (ref.Val, bool) {
	if e.Kind() == ast.LiteralKind {
		return e.AsLiteral(), true
	}
	return s.state.Value(e.ID())
}

// holds reports whether e evaluated to want.
func (s *scope) holds(e ast.Expr, want bool) bool {
	v, ok := s.value(e)
	return ok && v == types.Bool(want)
}

// why says why e did not evaluate to want.
func (s *scope) why(e ast.Expr, want bool) string {
	switch e.Kind() {
	case ast.CallKind:
		return s.whyCall(e, want)
	case ast.ComprehensionKind:
		return s.whyComprehension(e, want)
	case ast.IdentKind, ast.SelectKind:
		if v, ok := s.value(e); ok {
			return fmt.Sprintf("%s is %s, want %t", s.name(e), show(v), want)
		}
	}
	return notHeld
}

func (s *scope) whyCall(e ast.Expr, want bool) string {
	call := e.AsCall()
	args := call.Args()
	fn := call.FunctionName()
	switch {
	case fn == operators.LogicalNot:
		return s.why(args[0], !want)
	case fn == operators.LogicalAnd && want, fn == operators.LogicalOr && !want:
		return strings.Join(s.reasons(e, want), "; ")
	case fn == operators.LogicalOr && want, fn == operators.LogicalAnd && !want:
		// One operand would have been enough: say why none is.
		return s.whyNone(flatten(e, fn), want)
	case isComparison(fn) && len(args) == 2:
		return s.whyCompare(fn, args[0], args[1], want)
	case memberWords[fn].wanted != "" && call.IsMemberFunction() && len(args) == 1:
		t, tok := s.value(call.Target())
		a, aok := s.value(args[0])
		if tok && aok {
			not := map[bool]string{true: "", false: "not "}[want]
			return fmt.Sprintf("%s is %s, want it %s%s %s", s.name(call.Target()), show(t), not, memberWords[fn].wanted, show(a))
		}
	}
	return notHeld
}

// reasons is why e is not want: one reason for each operand that is not, when e needs every
// operand (a && b wanted true, a || b wanted false, also under a !), else why's one reason.
func (s *scope) reasons(e ast.Expr, want bool) []string {
	if e.Kind() != ast.CallKind {
		return []string{s.why(e, want)}
	}
	call := e.AsCall()
	switch fn := call.FunctionName(); {
	case fn == operators.LogicalNot:
		return s.reasons(call.Args()[0], !want)
	case fn == operators.LogicalAnd && want, fn == operators.LogicalOr && !want:
		var parts []string
		for _, a := range flatten(e, fn) {
			if !s.holds(a, want) {
				parts = append(parts, s.why(a, want))
			}
		}
		if len(parts) == 0 {
			return []string{notHeld}
		}
		return parts
	}
	return []string{s.why(e, want)}
}

// comparisons word each comparing operator as what is wanted of its left side.
var comparisons = map[string]string{
	operators.Equals: "", operators.NotEquals: "anything but ",
	operators.Less: "under ", operators.LessEquals: "at most ",
	operators.Greater: "over ", operators.GreaterEquals: "at least ",
	operators.In: "one of ",
}

func isComparison(fn string) bool {
	_, ok := comparisons[fn]
	return ok
}

// negated is the operator that holds exactly when the key does not; flipped the one that
// holds with its sides swapped.
var (
	negated = map[string]string{
		operators.Equals: operators.NotEquals, operators.NotEquals: operators.Equals,
		operators.Less: operators.GreaterEquals, operators.GreaterEquals: operators.Less,
		operators.Greater: operators.LessEquals, operators.LessEquals: operators.Greater,
	}
	flipped = map[string]string{
		operators.Equals: operators.Equals, operators.NotEquals: operators.NotEquals,
		operators.Less: operators.Greater, operators.Greater: operators.Less,
		operators.LessEquals: operators.GreaterEquals, operators.GreaterEquals: operators.LessEquals,
	}
)

// memberWords word the string functions a condition asks of a field, as wanted ("to
// contain") and as a claim about it ("contains", see claim).
var memberWords = map[string]struct{ wanted, claim string }{
	"contains":   {"to contain", "contains"},
	"startsWith": {"to start with", "starts with"},
	"endsWith":   {"to end with", "ends with"},
	"matches":    {"to match", "matches"},
}

func (s *scope) whyCompare(fn string, left, right ast.Expr, want bool) string {
	name, got, wanted, ok := s.compared(fn, left, right, want)
	if !ok {
		return notHeld
	}
	return fmt.Sprintf("%s is %s, want %s", name, got, wanted)
}

// compared is what a comparison of left and right that was not want reads as: the left
// side's name and value, and what was wanted of it ("at least 5"), a literal on the left
// read as the right side.
func (s *scope) compared(fn string, left, right ast.Expr, want bool) (name, got, wanted string, ok bool) {
	if left.Kind() == ast.LiteralKind && right.Kind() != ast.LiteralKind && flipped[fn] != "" {
		left, right, fn = right, left, flipped[fn]
	}
	if !want {
		if negated[fn] == "" {
			return "", "", "", false
		}
		fn = negated[fn]
	}
	lv, lok := s.value(left)
	rv, rok := s.value(right)
	if !lok || !rok {
		return "", "", "", false
	}
	return s.name(left), show(lv), comparisons[fn] + show(rv), true
}

// flatten is e's operands of fn, with nested calls of fn opened: a && (b && c) is a, b, c.
func flatten(e ast.Expr, fn string) []ast.Expr {
	if e.Kind() != ast.CallKind || e.AsCall().FunctionName() != fn {
		return []ast.Expr{e}
	}
	var out []ast.Expr
	for _, a := range e.AsCall().Args() {
		out = append(out, flatten(a, fn)...)
	}
	return out
}

// listed is a comprehension over a list as an explanation reads it: the macro it was written
// as (exists, all, exists_one), the list, its size and name, and the program of what it asks
// of one item.
type listed struct {
	kind string
	list traits.Lister
	n    int
	of   string
	item func(ref.Val) (*scope, error)
}

// listed reads the comprehension e; false when it is not a macro over a list it can explain.
func (s *scope) listed(e ast.Expr) (listed, bool) {
	c := e.AsComprehension()
	macro, _ := s.ast.SourceInfo().GetMacroCall(e.ID())
	if macro == nil || macro.Kind() != ast.CallKind {
		return listed{}, false
	}
	rv, ok := s.value(c.IterRange())
	list, isList := rv.(traits.Lister)
	item := s.item(e)
	if !ok || !isList || item == nil {
		return listed{}, false
	}
	return listed{kind: macro.AsCall().FunctionName(), list: list, n: int(list.Size().(types.Int)),
		of: s.name(c.IterRange()), item: item}, true
}

// explained are l's items among the first maxExplainItems, each with what it asks run on it;
// an item it fails to run on is left out.
func (l listed) explained() iter.Seq2[int, *scope] {
	return func(yield func(int, *scope) bool) {
		for i := range min(l.n, maxExplainItems) {
			if sub, err := l.item(l.list.Get(types.Int(i))); err == nil && !yield(i, sub) {
				return
			}
		}
	}
}

// first is the first of l's explained items on which what it asks is not want, with why;
// false when there is none.
func (l listed) first(want bool) (int, string, bool) {
	for i, sub := range l.explained() {
		if !sub.holds(sub.ast.Expr(), want) {
			return i, sub.why(sub.ast.Expr(), want), true
		}
	}
	return 0, "", false
}

// listRule is what a comprehension over a list needed of its items to be what was wanted.
type listRule int

const (
	anyItem   listRule = iota + 1 // one item would have done: exists wanted true, all wanted false
	everyItem                     // every item had to: all wanted true, exists wanted false
	oneItem                       // exactly one item had to: exists_one
)

// rule is what the comprehension l needed of its items for it to be want, and what each
// item was to be (true for exists and all, false for their negations); false for a macro
// it cannot word.
func (l listed) rule(want bool) (listRule, bool, bool) {
	switch {
	case l.kind == "exists" && want, l.kind == "all" && !want:
		return anyItem, l.kind == "exists", true
	case l.kind == "all" && want, l.kind == "exists" && !want:
		return everyItem, l.kind == "all", true
	case l.kind == "exists_one":
		return oneItem, true, true
	}
	return 0, false, false
}

// decisive is the item of l that decided against rule, whose every item was to be wantItem:
// for anyItem the closest, for everyItem the first that was not, with why; false when there
// is none.
func (l listed) decisive(rule listRule, wantItem bool) (int, string, bool) {
	if rule == anyItem {
		best, why := l.closest(wantItem)
		return best, why, best >= 0
	}
	return l.first(wantItem)
}

// whyComprehension words exists, all and exists_one over a list: how many items it had and,
// for the item that decided (the closest for exists, the first failing for all), why.
func (s *scope) whyComprehension(e ast.Expr, want bool) string {
	l, ok := s.listed(e)
	if !ok {
		return notHeld
	}
	rule, wantItem, ok := l.rule(want)
	switch {
	case !ok:
	case rule == anyItem && l.n == 0:
		return l.of + " has no items"
	case rule == anyItem:
		none := fmt.Sprintf("none of the %d items of %s matches", l.n, l.of)
		if !wantItem {
			none = fmt.Sprintf("every one of the %d items of %s passes", l.n, l.of)
		}
		if i, why, ok := l.decisive(rule, wantItem); ok {
			return fmt.Sprintf("%s; the closest, #%d: %s", none, i+1, why)
		}
		return none
	case rule == everyItem:
		if i, why, ok := l.decisive(rule, wantItem); ok {
			verb := map[bool]string{true: "fails", false: "matches"}[wantItem]
			return fmt.Sprintf("item #%d of %d in %s %s: %s", i+1, l.n, l.of, verb, why)
		}
	case rule == oneItem:
		matches := 0
		for _, sub := range l.explained() {
			if sub.holds(sub.ast.Expr(), true) {
				matches++
			}
		}
		if l.n > maxExplainItems {
			return fmt.Sprintf("%d of the first %d of the %d items of %s match, want exactly one", matches, maxExplainItems, l.n, l.of)
		}
		return fmt.Sprintf("%d of the %d items of %s match, want exactly one", matches, l.n, l.of)
	}
	return notHeld
}

// predicate is what a comprehension asks of each item, from its loop step: the right of
// `accu || p` (exists) or `accu && p` (all), the condition of `p ? accu + 1 : accu`.
func predicate(step ast.Expr) ast.Expr {
	if step.Kind() != ast.CallKind {
		return nil
	}
	call := step.AsCall()
	switch call.FunctionName() {
	case operators.LogicalOr, operators.LogicalAnd:
		return call.Args()[1]
	case operators.Conditional:
		return call.Args()[0]
	}
	return nil
}

// closest is the explained item of l on which what it asks comes nearest to want: the most
// of its conjuncts are want, the first on a tie; with why it is not want on that item.
func (l listed) closest(want bool) (int, string) {
	best, score, why := -1, -1, ""
	for i, sub := range l.explained() {
		op := map[bool]string{true: operators.LogicalAnd, false: operators.LogicalOr}[want]
		got := 0
		for _, c := range flatten(sub.ast.Expr(), op) {
			if sub.holds(c, want) {
				got++
			}
		}
		if got > score {
			best, score, why = i, got, sub.why(sub.ast.Expr(), want)
		}
	}
	return best, why
}

// item runs the program of what the comprehension e asks of each item on one item at a
// time, bound to its variable beside the variables s ran on; nil when it has none.
func (s *scope) item(e ast.Expr) func(v ref.Val) (*scope, error) {
	p := s.items[e.ID()]
	if p == nil {
		return nil
	}
	return func(v ref.Val) (*scope, error) {
		vars := make(map[string]any, len(s.vars)+1)
		for k, x := range s.vars {
			vars[k] = x
		}
		vars[p.iterVar] = v
		return p.run(vars)
	}
}

// name is how an explanation calls e: its source, read relative to the item judged (r.room
// is room) and to the body (body.phase is phase), a size in words.
func (s *scope) name(e ast.Expr) string {
	if e.Kind() == ast.CallKind && e.AsCall().FunctionName() == "size" {
		if c := e.AsCall(); c.IsMemberFunction() {
			return "the size of " + s.name(c.Target())
		} else if len(c.Args()) == 1 {
			return "the size of " + s.name(c.Args()[0])
		}
	}
	src, err := parser.Unparse(e, s.ast.SourceInfo())
	if err != nil {
		return "the value"
	}
	for _, root := range []string{s.iterVar, "body"} {
		switch {
		case root == "":
		case src == root && root == s.iterVar:
			return "the item"
		case src == root:
			return "the body"
		case strings.HasPrefix(src, root+"."):
			return strings.TrimPrefix(src, root+".")
		}
	}
	return src
}

// show is a value as an explanation quotes it: JSON, cut to maxValueText code points.
func show(v ref.Val) string {
	b, err := json.Marshal(native(v))
	if err != nil {
		return cut(fmt.Sprint(v.Value()), maxValueText)
	}
	return cut(string(b), maxValueText)
}

// native is v as Go's JSON encodes it: lists and maps opened, everything else its value.
func native(v ref.Val) any {
	switch x := v.(type) {
	case traits.Mapper:
		m := map[string]any{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			m[fmt.Sprint(k.Value())] = native(x.Get(k))
		}
		return m
	case traits.Lister:
		out := []any{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			out = append(out, native(it.Next()))
		}
		return out
	case types.Null:
		return nil
	}
	return v.Value()
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
