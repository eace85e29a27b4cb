package oracle

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
)

// The words for alternatives that all failed (a || b false, or !(a && b) false, where one
// would have been enough): what each would have needed, in positive words, with what was
// found in brackets: `neither any of the 2 items of records matches (the closest, #1: room
// is "south", want "north") nor phase is "completed" (it is "editing")`. An alternative with
// no positive words of its own (a list wanted empty, a nested conjunction) makes the
// sentence a numbered list of why each did not hold instead, never a double negative.

// whyNone says why none of alts was want.
func (s *scope) whyNone(alts []ast.Expr, want bool) string {
	claims := make([]string, 0, len(alts))
	for _, a := range alts {
		c, ok := s.claim(a, want)
		if !ok {
			return s.eachFailed(alts, want)
		}
		claims = append(claims, c)
	}
	return "neither " + strings.Join(claims, " nor ")
}

// eachFailed says why none of alts was want as a numbered list, an alternative's own reasons
// (the parts of a conjunction that failed) joined by "and", so two alternatives never read as
// three: `none of the 2 alternatives holds: 1) phase is "a", want "b"; 2) count is 3, want 1
// and count is 3, want 2`. A list inside an alternative is lettered and bracketed, so it
// cannot be read as the outer one going on.
func (s *scope) eachFailed(alts []ast.Expr, want bool) string {
	s.listing++
	defer func() { s.listing-- }()
	whys := make([]string, len(alts))
	for i, b := range alts {
		label := fmt.Sprint(i + 1)
		if s.listing > 1 {
			label = string(rune('a' + i%26))
		}
		whys[i] = label + ") " + strings.Join(s.reasons(b, want), " and ")
	}
	if s.listing > 1 {
		return fmt.Sprintf("none of the %d alternatives holds [%s]", len(alts), strings.Join(whys, "; "))
	}
	return fmt.Sprintf("none of the %d alternatives holds: %s", len(alts), strings.Join(whys, "; "))
}

// claim is what would have made e want, in positive words, with what was found in
// brackets; false when e's shape has none.
func (s *scope) claim(e ast.Expr, want bool) (string, bool) {
	switch e.Kind() {
	case ast.IdentKind, ast.SelectKind:
		if v, ok := s.value(e); ok {
			return fmt.Sprintf("%s is %t (it is %s)", s.name(e), want, show(v)), true
		}
	case ast.ComprehensionKind:
		return s.claimList(e, want)
	case ast.CallKind:
		call := e.AsCall()
		args := call.Args()
		fn := call.FunctionName()
		switch {
		case fn == operators.LogicalNot:
			return s.claim(args[0], !want)
		case isComparison(fn) && len(args) == 2:
			if name, got, wanted, ok := s.compared(fn, args[0], args[1], want); ok {
				return fmt.Sprintf("%s is %s (it is %s)", name, wanted, got), true
			}
		case want && memberWords[fn].claim != "" && call.IsMemberFunction() && len(args) == 1:
			t, tok := s.value(call.Target())
			a, aok := s.value(args[0])
			if tok && aok {
				return fmt.Sprintf("%s %s %s (it is %s)", s.name(call.Target()), memberWords[fn].claim, show(a), show(t)), true
			}
		}
	}
	return "", false
}

// claimList is what would have made the comprehension e want: any item matching (or failing,
// for all wanted false), with the closest; every item passing, with the first that fails.
func (s *scope) claimList(e ast.Expr, want bool) (string, bool) {
	l, ok := s.listed(e)
	if !ok {
		return "", false
	}
	rule, wantItem, ok := l.rule(want)
	switch {
	case !ok:
	case rule == anyItem:
		verb := map[bool]string{true: "matches", false: "fails"}[wantItem]
		if l.n == 0 {
			return fmt.Sprintf("any item of %s %s (it has none)", l.of, verb), true
		}
		c := fmt.Sprintf("any of the %d items of %s %s", l.n, l.of, verb)
		if i, why, ok := l.decisive(rule, wantItem); ok {
			c += fmt.Sprintf(" (the closest, #%d: %s)", i+1, why)
		}
		return c, true
	case rule == everyItem && wantItem:
		c := fmt.Sprintf("every one of the %d items of %s passes", l.n, l.of)
		if i, why, ok := l.decisive(rule, wantItem); ok {
			c += fmt.Sprintf(" (item #%d fails: %s)", i+1, why)
		}
		return c, true
	}
	return "", false
}
