package browser

import (
	"reflect"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// TestObserveReadsTheTaskAuthority: every observation reads the principal, the relevant text
// and the version where the task says: an element by test id (its text or a field's value), a
// meta tag by CSS, local storage, a cookie the page sees and an HttpOnly one it does not;
// what is not on the page reads empty.
func TestObserveReadsTheTaskAuthority(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{Authority: &agent.Authority{
		Principal: &agent.Probe{TestID: "account"},
		Version:   &agent.Probe{CSS: `meta[name="app-version"]`},
		Relevant: []agent.Probe{{ID: "price", TestID: "price"}, {ID: "amount", TestID: "amount"},
			{ID: "plan", Storage: "plan"}, {ID: "region", Cookie: "region"}, {ID: "session", Cookie: "session"},
			{ID: "missing", TestID: "nowhere"}},
	}})
	_, err := page.(*Page).page.Evaluate(`() => {
		document.body.insertAdjacentHTML("beforeend",
			'<span data-testid="account"> alice@example.com </span><b data-testid="price">20.00</b>' +
			'<input data-testid="amount" value="3">');
		document.head.insertAdjacentHTML("beforeend", '<meta name="app-version" content="checkout-b">');
		localStorage.setItem("plan", "gold");
		document.cookie = "region=eu; path=/";
	}`)
	if err != nil {
		t.Fatal(err)
	}
	p := page.(*Page)
	err = p.bc.AddCookies([]playwright.OptionalCookie{{Name: "session", Value: "s-42", URL: playwright.String(p.page.URL()), HttpOnly: playwright.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	s := mustObserve(t, page)
	want := []agent.Fact{{ID: "price", Value: "20.00"}, {ID: "amount", Value: "3"}, {ID: "plan", Value: "gold"},
		{ID: "region", Value: "eu"}, {ID: "session", Value: "s-42"}, {ID: "missing", Value: ""}}
	if s.Principal != "alice@example.com" || s.Version != "checkout-b" || !reflect.DeepEqual(s.Facts, want) {
		t.Errorf("principal %q, version %q, facts %+v; want alice@example.com, checkout-b, %+v", s.Principal, s.Version, s.Facts, want)
	}
	if plain := mustObserve(t, openLab(t, agent.PageOptions{})); plain.Principal != "" || plain.Facts != nil {
		t.Errorf("a page without a task authority read %q, %+v", plain.Principal, plain.Facts)
	}
}
