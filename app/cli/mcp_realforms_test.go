//go:build linux

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// formsPage holds the form patterns of real sites, each reporting its state to its own
// origin's /report as it changes: labels that wrap their control, label for= and
// aria-labelledby, a select, checkboxes inside their label, two fieldsets of Yes/No radios, a contenteditable, a custom
// element whose controls are in an open shadow root, a table whose rows each have a Delete
// button, a list whose items each have an Add to cart button, cards (plain divs) each with a
// Compare button, a newsletter form (whose Email matches the main form's) inside a same-origin
// iframe, a payment form inside a cross-origin one (%s: the other origin) and a Like button
// inside an iframe written from srcdoc, with no title, name, id or src.
const formsPage = `<!doctype html><title>Account</title>
<main><h1>Account</h1>
<form id="account" onsubmit="return false">
<label>Email <input name="email" type="email"></label>
<label for="city">City</label> <input id="city" name="city">
<span id="phone-label">Phone number</span> <input name="phone" aria-labelledby="phone-label">
<label>Plan <select name="plan"><option>Basic</option><option>Pro</option><option>Team</option></select></label>
<label><input type="checkbox" name="news"> Send me news</label>
<label><input type="checkbox" name="terms"> I accept the terms</label>
<div contenteditable="true" role="textbox" aria-label="Notes" id="notes" style="min-height:2em;border:1px solid"></div>
</form>
<form id="questions">
<fieldset><legend>Do you smoke?</legend><label><input type="radio" name="smoke" value="yes"> Yes</label> <label><input type="radio" name="smoke" value="no"> No</label></fieldset>
<fieldset><legend>Do you drive?</legend><label><input type="radio" name="drive" value="yes"> Yes</label> <label><input type="radio" name="drive" value="no"> No</label></fieldset>
</form>
<x-search></x-search>
<table><tr><th>Name</th><th></th></tr>
<tr><td>Alice</td><td><button>Delete</button></td></tr>
<tr><td>Bob</td><td><button>Delete</button></td></tr>
<tr><td>Carol</td><td><button>Delete</button></td></tr></table>
<ul><li><h3>Lamp</h3><button>Add to cart</button></li><li><h3>Chair</h3><button>Add to cart</button></li></ul>
<div class="card"><span>Desk</span> <button>Compare</button></div><div class="card"><span>Shelf</span> <button>Compare</button></div>
<p role="status" id="status"></p>
<iframe src="/newsletter" title="Newsletter" style="height:120px"></iframe>
<iframe src="%s/pay" title="Payment" style="height:120px"></iframe>
<iframe style="height:60px" srcdoc='<button>Like</button><script>document.querySelector("button").onclick = () =>
  fetch("/report", {method: "POST", body: JSON.stringify({form: "like", state: {liked: "yes"}})})</script>'></iframe>
</main>
<script>
const report = (form, state) => fetch("/report", {method: "POST", body: JSON.stringify({form, state})});
const f = document.getElementById("account");
const account = () => report("account", {email: f.email.value, city: f.city.value, phone: f.phone.value, plan: f.plan.value,
  news: String(f.news.checked), terms: String(f.terms.checked), notes: document.getElementById("notes").textContent});
f.addEventListener("input", account); f.addEventListener("change", account);
document.getElementById("notes").addEventListener("input", account);
const q = document.getElementById("questions");
q.addEventListener("change", () => report("questions", {smoke: q.smoke.value, drive: q.drive.value}));
customElements.define("x-search", class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: "open"});
    root.innerHTML = '<label>Search <input></label> <button>Search now</button>';
    root.querySelector("button").addEventListener("click", () => report("search", {query: root.querySelector("input").value}));
  }
});
for (const b of document.querySelectorAll("li button"))
  b.addEventListener("click", () => report("cart", {added: b.closest("li").querySelector("h3").textContent}));
for (const b of document.querySelectorAll(".card button"))
  b.addEventListener("click", () => report("compare", {item: b.closest(".card").querySelector("span").textContent}));
for (const b of document.querySelectorAll("td button"))
  b.addEventListener("click", () => {
    const row = b.closest("tr"), name = row.cells[0].textContent;
    row.remove();
    document.getElementById("status").textContent = "Deleted " + name;
    report("rows", {deleted: name, left: [...document.querySelectorAll("td:first-child")].map(c => c.textContent).join(",")});
  });
</script>`

// newsletterPage is the same-origin iframe's form.
const newsletterPage = `<!doctype html><title>Newsletter</title>
<form onsubmit="return false"><label>Email <input name="email"></label> <button>Subscribe</button></form>
<script>
const f = document.forms[0];
f.querySelector("button").addEventListener("click", () =>
  fetch("/report", {method: "POST", body: JSON.stringify({form: "newsletter", state: {email: f.email.value}})}));
</script>`

// payPage is the cross-origin iframe's form.
const payPage = `<!doctype html><title>Payment</title>
<form onsubmit="return false"><label for="coupon">Coupon</label> <input id="coupon"> ZIP <input id="zip"> <button>Apply</button></form>
<script>
document.querySelector("button").addEventListener("click", () => fetch("/report", {method: "POST",
  body: JSON.stringify({form: "pay", state: {coupon: document.getElementById("coupon").value, zip: document.getElementById("zip").value}})}));
</script>`

// formsSite serves formsPage and its frames, from two origins (the payment form from the
// second), and keeps each form's latest reported state.
type formsSite struct {
	main, other *httptest.Server
	mu          sync.Mutex
	state       map[string]map[string]string
}

func startFormsSite(t *testing.T) *formsSite {
	t.Helper()
	s := &formsSite{state: map[string]map[string]string{}}
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/report":
			var rep struct {
				Form  string            `json:"form"`
				State map[string]string `json:"state"`
			}
			if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&rep); err == nil {
				s.mu.Lock()
				s.state[rep.Form] = rep.State
				s.mu.Unlock()
			}
		case "/newsletter":
			_, _ = io.WriteString(w, newsletterPage)
		case "/pay":
			_, _ = io.WriteString(w, payPage)
		default:
			_, _ = fmt.Fprintf(w, formsPage, s.other.URL)
		}
	}
	s.main = httptest.NewServer(http.HandlerFunc(handler))
	s.other = httptest.NewServer(http.HandlerFunc(handler))
	t.Cleanup(s.main.Close)
	t.Cleanup(s.other.Close)
	return s
}

// reported is what form last reported of itself.
func (s *formsSite) reported(form string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state[form]
}

// formsSaw is what pwforms.mjs reports.
type formsSaw struct {
	Snapshot string `json:"snapshot"`
	Final    string `json:"final"`
	Steps    []struct {
		Name    string `json:"name"`
		Tool    string `json:"tool"`
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
	} `json:"steps"`
	Error string `json:"error"`
}

// checkForms says what of the forms' reported state is not what pwforms.mjs filled in.
func checkForms(t *testing.T, server string, site *formsSite, saw formsSaw) {
	t.Helper()
	if saw.Error != "" {
		t.Errorf("%s: the client failed: %s", server, saw.Error)
	}
	t.Logf("%s's first snapshot:\n%s", server, saw.Snapshot)
	for _, st := range saw.Steps {
		if st.IsError {
			t.Errorf("%s: %s failed:\n%s", server, st.Name, st.Text)
		}
	}
	want := map[string]map[string]string{
		"account":    {"email": "ada@example.com", "city": "Lyon", "phone": "555 0100", "plan": "Pro", "news": "true", "terms": "true", "notes": "Ring twice"},
		"search":     {"query": "lamps"},
		"rows":       {"deleted": "Bob", "left": "Alice,Carol"},
		"newsletter": {"email": "news@example.com"},
		"pay":        {"coupon": "SPRING", "zip": "69001"},
		"cart":       {"added": "Chair"},
		"like":       {"liked": "yes"},
		"compare":    {"item": "Shelf"},
		"questions":  {"smoke": "no", "drive": "yes"},
	}
	for form, fields := range want {
		got := site.reported(form)
		for k, v := range fields {
			if got[k] != v {
				t.Errorf("%s: the %s form's %s is %q, want %q (it reported %v)", server, form, k, got[k], v, got)
			}
		}
	}
}

// TestMCPRealFormPatternsLandOnTheirElements: a client written for Playwright MCP fills the
// form patterns of real sites by refs from its snapshots (fill_form, select_option, click,
// type) through `observatory mcp`: every call lands on the element its ref named, as the
// page's own reports show, and every recorded step's target names that element alone: the
// iframe it is in (by its title), the row or list item it is in (a plain div card by its ref,
// the button still by its role and name), and an unnamed field by its ref in its frame. The same client against Playwright MCP itself does the same on the same
// page (the reference), and every element its snapshot gives a ref, ours gives one too.
func TestMCPRealFormPatternsLandOnTheirElements(t *testing.T) {
	browsertest.Ready(t)
	site := startFormsSite(t)
	dataDir := t.TempDir()
	task := filepath.Join(t.TempDir(), "task.yaml")
	if err := os.WriteFile(task, []byte(fmt.Sprintf(`schema: observatory.task/v1
name: forms
intent: Fill in the account, search for lamps, delete Bob, subscribe and apply the coupon.
start_url: %s/
origins: [%s, %s]
config: {budget: 40}
success:
  - id: deleted
    page: {text: "Deleted Bob"}
`, site.main.URL, site.main.URL, site.other.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	var saw formsSaw
	runNodeClient(t, "pwforms.mjs", observatoryMCP(task, "--data-dir", dataDir, "--no-video"), site.main.URL+"/", &saw)
	checkForms(t, "Observatory", site, saw)
	// Each recorded step's target names the element the client's ref named, alone: the
	// frame it is in, the row it is in.
	want := map[string]string{
		"Fill form field Email":        `textbox[Email]`,
		"Fill form field City":         `textbox[City]`,
		"Fill form field Phone number": `textbox[Phone number]`,
		"Fill form field Send me news": `checkbox[Send me news]`,
		`Select "Pro" in Plan`:         `combobox[Plan]`,
		"Click I accept the terms":     `checkbox[I accept the terms]`,
		"Type into Notes":              `textbox[Notes]`,
		"Fill form field Smoke: No":    `radio[No] within group "Do you smoke?"`,
		"Fill form field Drive: Yes":   `radio[Yes] within group "Do you drive?"`,
		"Type into Search":             `textbox[Search]`,
		"Click Search now":             `button[Search now]`,
		"Click Delete button of Bob":   `button[Delete] within row "Bob"`,
		"Fill form field news Email":   `textbox[Email] in frame "Newsletter"`,
		"Click Subscribe":              `button[Subscribe] in frame "Newsletter"`,
		"Type into Coupon":             `textbox[Coupon] in frame "Payment"`,
		"Click Apply":                  `button[Apply] in frame "Payment"`,
		"Click Add to cart of Chair":   `button[Add to cart] within css "aria-ref=<ref>"`,
		"Type into ZIP":                `css "aria-ref=<ref>" in frame "Payment"`,
		"Click Compare of Shelf":       `button[Compare] within css "aria-ref=<ref>"`,
		"Click Like":                   `button[Like] in frame css "aria-ref=<ref>"`,
	}
	run := sessionRun(t, dataDir)
	for _, a := range run.Attempts {
		for _, st := range a.Steps {
			if st.Action.Kind == agent.ActNavigate {
				continue
			}
			target, ok := want[st.Action.Description]
			got := snapshotRef.ReplaceAllString(st.Action.Target.String(), "aria-ref=<ref>")
			if !ok || got != target || st.Error != "" {
				t.Errorf("step %d %q recorded target %s (error %q), want %s", st.Index, st.Action.Description, st.Action.Target, st.Error, target)
			}
			if st.Action.Description == "Click Delete button of Bob" && st.Decision.Class != agent.ClassDestruct {
				t.Errorf("deleting Bob's row was classified %s, want destruct: the harness reads the control's name", st.Decision.Class)
			}
			delete(want, st.Action.Description)
		}
	}
	if len(want) > 0 {
		t.Errorf("no step recorded for %v", want)
	}

	// The same client, unchanged, against Playwright MCP on a fresh copy of the site.
	ref := startFormsSite(t)
	var refSaw formsSaw
	runNodeClient(t, "pwforms.mjs", playwrightMCP(t), ref.main.URL+"/", &refSaw)
	checkForms(t, "Playwright MCP", ref, refSaw)
	ours, theirs := refElements(saw.Snapshot), refElements(refSaw.Snapshot)
	for e := range theirs {
		if !ours[e] {
			t.Errorf("Playwright MCP's snapshot has %s with a ref, Observatory's does not", e)
		}
	}
}

// snapshotRef is a selector by a snapshot's ref, whose numbers the browser gives.
var snapshotRef = regexp.MustCompile(`aria-ref=(f\d+)?e\d+`)

// refElements is the elements of a snapshot that have refs, each as its role, name, and
// whether it is inside an iframe.
func refElements(snap string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*- (\w+)( "[^"]*")?.*\[ref=(f?)\d`).FindAllStringSubmatch(snap, -1) {
		out[m[1]+m[2]+map[string]string{"f": " in a frame", "": ""}[m[3]]] = true
	}
	return out
}
