package model

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// expenseForm is the commonest form pattern there is: labels wrapping their controls, a
// select's options inside its label.
const expenseForm = `<!doctype html><title>New expense</title><form>
<label>Category <select name="category"><option>Food</option><option>Travel</option></select></label>
<label>Amount <input name="amount"></label>
<button>Save</button></form>`

// TestLabelLocatorsReachWrappedControls checks, in Chromium, that what the model sees of a
// form with wrapping labels is what its label locators reach: the snapshot lists the select
// as combobox "Category", and the model's calls that target it, and the input, by label act
// on them.
func TestLabelLocatorsReachWrappedControls(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(expenseForm))
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := browsertest.Launch(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	for _, c := range []toolCall{
		{Name: "select", Args: `{"target":{"label":"Category"},"value":"Travel","reason":"The expense is a taxi."}`},
		{Name: "fill", Args: `{"target":{"label":"Amount"},"value":"12.50","reason":"The fare."}`},
	} {
		p, err := parseCall(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Args, err)
		}
		if err := page.Act(ctx, p.Action); err != nil {
			t.Errorf("%s: %v", p.Action.Description, err)
		}
	}
	s, err := page.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := snapshot(s, time.Minute)
	for _, want := range []string{`combobox "Category" = "Travel"`, `textbox "Amount" = "12.50"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the snapshot lacks %s:\n%s", want, got)
		}
	}
}
