package oracle

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A failed condition explains itself from the values it saw, never by its CEL source; the
// source stays on the verdict for the workbench to show on demand.
func TestFailedConditionExplainsItselfInWords(t *testing.T) {
	body := `{"records":[{"title":"Spectral scan","room":"south"},{"title":"Other","room":"east"}],"phase":"editing","dialog_open":true,"notice":"","count":3}`
	cases := []struct{ expr, says, want string }{
		{`body.phase == "completed"`, "", `status 200: phase is "editing", want "completed"`},
		{`body.dialog_open == false`, "", `status 200: dialog_open is true, want false`},
		{`"completed" == body.phase`, "", `status 200: phase is "editing", want "completed"`},
		{`body.count >= 5`, "", `status 200: count is 3, want at least 5`},
		{`!(body.count < 5)`, "", `status 200: count is 3, want at least 5`},
		{`size(body.records) == 0`, "", `status 200: the size of records is 2, want 0`},
		{`body.dialog_open == true`, "", ""}, // holds: see below
		{`body.notice.contains("saved")`, "", `status 200: notice is "", want it to contain "saved"`},
		{`body.records.exists(r, r.title == "Spectral scan" && r.room == "north")`, "",
			`status 200: none of the 2 items of records matches; the closest, #1: room is "south", want "north"`},
		{`body.records.all(r, r.room != "east")`, "",
			`status 200: item #2 of 2 in records fails: room is "east", want anything but "east"`},
		{`body.records.exists_one(r, r.room != "")`, "",
			`status 200: 2 of the 2 items of records match, want exactly one`},
		{`body.phase == "completed" && body.notice == "Reservation saved"`, "",
			`status 200: phase is "editing", want "completed"; notice is "", want "Reservation saved"`},
		{`body.records.exists(r, r.room == "north") || body.phase == "completed"`, "",
			`status 200: neither any of the 2 items of records matches (the closest, #1: room is "south", want "north") nor phase is "completed" (it is "editing")`},
		{`body.records.exists(r, ["north", "west"].exists(z, z == r.room))`, "",
			`status 200: none of the 2 items of records matches; the closest, #1: none of the 2 items of ["north", "west"] matches; the closest, #1: the item is "north", want "south"`},
		{`!body.records.all(r, r.title != "")`, "",
			`status 200: every one of the 2 items of records passes; the closest, #1: title is "Spectral scan", want ""`},
		{`!body.records.exists(r, r.room == "east")`, "",
			`status 200: item #2 of 2 in records matches: room is "east", want anything but "east"`},
		{`body.phase == "completed"`, "the save completed", `status 200: phase is "editing", want "completed" (want: the save completed)`},
		{`body.records.map(r, r.room)[0] == "x" ? false : true == false`, "", "status 200: the condition is false on this answer"},
	}
	for _, c := range cases {
		h, err := NewHTTP("", "/api/state", nil, c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		raw, _ := json.Marshal(httpAnswer{Status: 200, ContentType: "application/json", Body: json.RawMessage(body)})
		h.Say(c.says)
		v := h.Judge(raw)
		if c.want == "" {
			if !v.Done || v.Evidence != "status 200, as wanted" {
				t.Errorf("%s: got %+v, want done, as wanted", c.expr, v)
			}
			continue
		}
		if v.Done || v.Unconfirmed != "" || v.Evidence != c.want {
			t.Errorf("%s:\n got %q (done %v, unconfirmed %q)\nwant %q", c.expr, v.Evidence, v.Done, v.Unconfirmed, c.want)
		}
		if v.Check != c.expr {
			t.Errorf("%s: check %q, want the expression", c.expr, v.Check)
		}
		if strings.Contains(v.Evidence, "`") {
			t.Errorf("%s: evidence %q quotes CEL", c.expr, v.Evidence)
		}
		// Judged again from the same answer (as an import does), the words are the same.
		if again := h.Judge(raw); again != v {
			t.Errorf("%s: judged again %+v, first %+v", c.expr, again, v)
		}
	}
}

// An SQL condition words its rows the same way.
func TestFailedSQLConditionExplainsItsRows(t *testing.T) {
	q, err := NewSQL("sqlite", "x.db", "", "SELECT state FROM issues", `size(rows) == 1 && rows[0].state == "open"`)
	if err != nil {
		t.Fatal(err)
	}
	v := q.Judge(json.RawMessage(`{"rows":[{"state":"closed"}]}`))
	if want := `1 row(s): rows[0].state is "closed", want "open"`; v.Done || v.Evidence != want {
		t.Errorf("got %+v, want %q", v, want)
	}
}

// A long list is counted whole, and its closest item sought among the first items only, so
// that explaining stays bounded.
func TestALongListIsExplainedWithinBounds(t *testing.T) {
	var items []string
	for i := range 5000 {
		items = append(items, fmt.Sprintf(`{"n":%d}`, i))
	}
	h, err := NewHTTP("", "/api/state", nil, `body.items.exists(i, i.n == -1)`)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(httpAnswer{Status: 200, ContentType: "application/json", Body: json.RawMessage(`{"items":[` + strings.Join(items, ",") + `]}`)})
	if v := h.Judge(raw); v.Evidence != `status 200: none of the 5000 items of items matches; the closest, #1: n is 0, want -1` {
		t.Errorf("got %q", v.Evidence)
	}
}

// Explaining a failed check compiles nothing: the explaining program, with its
// comprehensions' items, is built once with the check, so a failed check costs an evaluation
// and not a compilation (here less than half of compiling the expression, in allocations).
func TestExplainingCompilesNothing(t *testing.T) {
	src := `body.records.exists(r, r.title == "Spectral scan" && r.room == "north") || body.phase == "completed"`
	h, err := NewHTTP("", "/api/state", nil, src)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(httpAnswer{Status: 200, ContentType: "application/json",
		Body: json.RawMessage(`{"records":[{"title":"Spectral scan","room":"south"},{"title":"Other","room":"east"}],"phase":"editing"}`)})
	if v := h.Judge(raw); v.Done || !strings.Contains(v.Evidence, "the closest, #1") {
		t.Fatalf("got %+v, want the closest item explained", v)
	}
	compiling := testing.AllocsPerRun(20, func() { _, _ = explained(httpEnv, src, "") })
	judging := testing.AllocsPerRun(20, func() { _ = h.Judge(raw) })
	if judging > compiling/2 {
		t.Errorf("judging a failed check allocates %.0f times, compiling its explanation %.0f: explaining compiles again", judging, compiling)
	}
}

// Alternatives that all failed (a || b, or !(a && b)) read as what each would have needed,
// "neither … nor …", never as a double negative: over exists, all and comparisons, and as a
// list of why each failed when one has no positive words.
func TestFailedAlternativesReadNaturally(t *testing.T) {
	body := `{"records":[{"title":"Spectral scan","room":"south"},{"title":"Other","room":"east"}],"none":[],"phase":"editing","dialog_open":true,"notice":"","count":3}`
	cases := []struct{ expr, want string }{
		{`body.records.exists(r, r.room == "north") || body.records.exists(r, r.title == "Survey")`,
			`neither any of the 2 items of records matches (the closest, #1: room is "south", want "north") nor any of the 2 items of records matches (the closest, #1: title is "Spectral scan", want "Survey")`},
		{`body.none.exists(r, r.room == "north") || body.count > 5`,
			`neither any item of none matches (it has none) nor count is over 5 (it is 3)`},
		{`body.records.all(r, r.room == "south") || body.phase == "completed"`,
			`neither every one of the 2 items of records passes (item #2 fails: room is "east", want "south") nor phase is "completed" (it is "editing")`},
		{`body.phase == "completed" || body.count >= 5 || 10 < body.count`,
			`neither phase is "completed" (it is "editing") nor count is at least 5 (it is 3) nor count is over 10 (it is 3)`},
		{`body.dialog_open == false || body.notice.contains("saved")`,
			`neither dialog_open is false (it is true) nor notice contains "saved" (it is "")`},
		{`!(body.phase == "editing" && body.records.all(r, r.title != ""))`,
			`neither phase is anything but "editing" (it is "editing") nor any of the 2 items of records fails (the closest, #1: title is "Spectral scan", want "")`},
		{`!body.records.exists(r, r.room == "east") || body.phase == "completed"`,
			`none of the 2 alternatives holds: 1) item #2 of 2 in records matches: room is "east", want anything but "east"; 2) phase is "editing", want "completed"`},
		// A conjunction among the alternatives is one alternative, its failed parts joined by "and".
		{`body.phase == "a" || (body.count == 1 && body.count == 2) || !body.records.exists(r, r.room == "east")`,
			`none of the 3 alternatives holds: 1) phase is "editing", want "a"; 2) count is 3, want 1 and count is 3, want 2; 3) item #2 of 2 in records matches: room is "east", want anything but "east"`},
		{`!((body.phase == "editing" || body.count == 1) && body.dialog_open) || body.records.size() == 0`,
			`none of the 2 alternatives holds: 1) none of the 2 alternatives holds [a) phase is "editing", want anything but "editing"; b) dialog_open is true, want false]; 2) the size of records is 2, want 0`},
	}
	for _, c := range cases {
		h, err := NewHTTP("", "/api/state", nil, c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		raw, _ := json.Marshal(httpAnswer{Status: 200, ContentType: "application/json", Body: json.RawMessage(body)})
		if v := h.Judge(raw); v.Done || v.Evidence != "status 200: "+c.want {
			t.Errorf("%s:\n got %q (done %v)\nwant %q", c.expr, v.Evidence, v.Done, "status 200: "+c.want)
		}
	}
}
