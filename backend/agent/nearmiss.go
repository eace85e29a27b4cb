package agent

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxCandidates is the most candidates a locator miss records.
const MaxCandidates = 5

// otherRoleSimilarity is the least name similarity an element of another role than the
// target's (or any element, for a target without a role) needs to be a candidate: only a
// strong match is worth naming there. Elements of the target's own role are always candidates.
const otherRoleSimilarity = 0.5

// Candidate is an element on the page near a target that matched nothing: its role and
// accessible name, how similar that name is to the target's (0 to 1), and where it was.
type Candidate struct {
	Role       string  `json:"role"`
	Name       string  `json:"name"`
	Similarity float64 `json:"similarity"`
	Box        Box     `json:"box"`
}

// String renders the candidate as the step's error names it: button "Book a slot" (similarity 0.62).
func (c Candidate) String() string {
	return fmt.Sprintf("%s %s (similarity %.2f)", c.Role, quote(c.Name), c.Similarity)
}

// MissError is ErrNoTarget with the elements nearest the target, best first: a Page returns
// it from Resolve when it can see what the page has instead.
type MissError struct {
	Candidates []Candidate
}

// Error says nothing matched and names the candidates.
func (e *MissError) Error() string {
	if len(e.Candidates) == 0 {
		return ErrNoTarget.Error()
	}
	names := make([]string, len(e.Candidates))
	for i, c := range e.Candidates {
		names[i] = c.String()
	}
	return ErrNoTarget.Error() + "; nearest: " + strings.Join(names, ", ")
}

// Unwrap makes errors.Is(err, ErrNoTarget) hold.
func (e *MissError) Unwrap() error { return ErrNoTarget }

// Nearest ranks the page's elements against a target that matched none of them and returns
// at most MaxCandidates, best first: when the target wants a control (a role a person acts on,
// a label or a placeholder), controls with a strong name (similarity of at least 0.5) before
// everything else, so a button "Save changes" leads a table's column header "Save"; then by
// name similarity (see Similarity), then elements of the target's role before others, then
// in page order. Elements of the target's role are
// always candidates; others need a similarity of at least 0.5, so a weak name of another role
// is never named. A target located by test id or CSS names no accessible name to compare, so
// it has no candidates.
func Nearest(t Target, elements []Candidate) []Candidate {
	kind, text := t.Locator()
	if kind == "" || kind == "test_id" || kind == "css" {
		return nil
	}
	type ranked struct {
		Candidate
		control, same bool
		at            int
	}
	wantsControl := kind == "label" || kind == "placeholder" || controlRoles[t.Role]
	var keep []ranked
	for i, e := range elements {
		e.Similarity = Similarity(text, e.Name)
		same := t.Role != "" && e.Role == t.Role
		control := wantsControl && controlRoles[e.Role] && e.Similarity >= otherRoleSimilarity
		if same || e.Similarity >= otherRoleSimilarity {
			keep = append(keep, ranked{e, control, same, i})
		}
	}
	slices.SortFunc(keep, func(a, b ranked) int {
		return cmp.Or(boolFirst(a.control, b.control), cmp.Compare(b.Similarity, a.Similarity), boolFirst(a.same, b.same), cmp.Compare(a.at, b.at))
	})
	out := make([]Candidate, 0, min(len(keep), MaxCandidates))
	for _, r := range keep[:min(len(keep), MaxCandidates)] {
		out = append(out, r.Candidate)
	}
	return out
}

// controlRoles are the ARIA roles of the controls a person acts on: buttons, links and inputs.
var controlRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true, "radio": true,
	"combobox": true, "listbox": true, "option": true, "menuitem": true, "menuitemcheckbox": true,
	"menuitemradio": true, "tab": true, "switch": true, "slider": true, "spinbutton": true, "treeitem": true,
}

// boolFirst orders true before false.
func boolFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// Similarity is how alike two accessible names are, from 0 (nothing shared) to 1 (equal once
// case and white space are set aside): the better of the normalised edit similarity (one
// minus the Levenshtein distance over the longer name's length, which catches typos and
// small edits) and the token overlap (the Dice coefficient of their words, which catches
// reordered or partly renamed labels). It is rounded to two decimals, as recorded.
func Similarity(a, b string) float64 {
	a, b = normalName(a), normalName(b)
	if a == b {
		return 1
	}
	if a == "" || b == "" {
		return 0
	}
	longer := max(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	edit := 1 - float64(levenshtein([]rune(a), []rune(b)))/float64(longer)
	return float64(int(max(edit, dice(strings.Fields(a), strings.Fields(b)))*100+0.5)) / 100
}

// normalName is s in lower case with its white space collapsed.
func normalName(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// levenshtein is the number of single-rune insertions, deletions and substitutions that turn
// a into b.
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// dice is the Dice coefficient of two word lists: twice the words they share over the words
// they have, each shared word counted as often as both lists hold it.
func dice(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	left := map[string]int{}
	for _, w := range a {
		left[w]++
	}
	shared := 0
	for _, w := range b {
		if left[w] > 0 {
			left[w]--
			shared++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b))
}
