package taskfile_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
	"observatory/internal/mediawikitest"
)

// refuseSecondLine makes the wiki refuse a save whose text has "second line", as an
// extension's edit filter does: the editor is shown again, with the text and the reason.
const refuseSecondLine = `$wgHooks['EditFilter'][] = static function ( $editor, $text, $section, &$error, $summary ) {
	if ( strpos( $text, 'second line' ) !== false ) {
		$error = 'This edit was refused by the wiki.';
	}
	return true;
};`

// staleToken makes the token of every editor of an existing page stale once the editor is
// shown, as signing in again in another tab does: the wiki itself then refuses the save
// ("loss of session data") and shows the editor again with the text.
const staleToken = `$wgHooks['BeforePageDisplay'][] = static function ( $out, $skin ) {
	if ( $out->getRequest()->getVal( 'action' ) === 'edit' && $out->getTitle()->exists() ) {
		$out->getRequest()->getSession()->resetToken();
	}
};`

// TestMediaWikiEditInChromium runs testdata/mediawiki/edit-page.yaml in real Chromium against
// a real MediaWiki (Debian's, on SQLite, served by PHP): signed in, the page is created and
// edited and the gate finds the edit in the wiki's database and HTML, and the wiki's own
// "Your edit was saved." toast is the notice. When the wiki refuses the edit (an edit filter
// refuses the new line, or the edit's token is stale) the editor shows the text again,
// Parallax's rule calls it done, and the gate, the truth, the notice and the terminal state
// say not done.
func TestMediaWikiEditInChromium(t *testing.T) {
	launch := launcher(t)
	tests := []struct {
		name string
		// settings are appended to the wiki's LocalSettings.php.
		settings string
		truth    string
		parallax string
		notice   string
		// refusal is what the wiki says when it refuses the save.
		refusal    string
		conditions map[string]string
		revisions  int
		terminal   agent.Terminal
	}{
		{name: "the edit is saved", truth: "yes", parallax: "yes", notice: "yes", revisions: 2,
			conditions: map[string]string{"stored": "yes", "rendered": "yes"}, terminal: agent.Completed},
		{name: "the edit is refused", settings: refuseSecondLine, truth: "no", parallax: "yes", notice: "no", revisions: 1,
			refusal: "This edit was refused by the wiki.", conditions: map[string]string{"stored": "no", "rendered": "no"}, terminal: agent.Failed},
		{name: "the edit's token is stale", settings: staleToken, truth: "no", parallax: "yes", notice: "no", revisions: 1,
			refusal:    "loss of session data",
			conditions: map[string]string{"stored": "no", "rendered": "no"}, terminal: agent.Failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wiki := mediawikitest.Start(t)
			if tt.settings != "" {
				wiki.Configure(t, tt.settings)
			}
			env := map[string]string{"WIKI_URL": wiki.URL, "WIKI_DB": wiki.DB, "WIKI_PASSWORD": mediawikitest.AdminPassword}
			// The user allows what they set, and the wiki's folder, which holds its database.
			trust := taskfile.Trust{Env: []string{"WIKI_URL", "WIKI_DB", "WIKI_PASSWORD"}, Paths: []string{wiki.Dir}}
			suite, err := taskfile.Load("testdata/mediawiki/edit-page.yaml", taskfile.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Trust: trust})
			if err != nil {
				t.Fatal(err)
			}
			r := &runner.Runner{Suite: suite, Spec: suite.Spec(), Planner: suite.Planner, Launch: launch}
			run, err := r.Run(context.Background(), "mediawiki", runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Attempts) != 1 {
				t.Fatalf("%d attempts", len(run.Attempts))
			}
			a := run.Attempts[0]
			v := a.Verdicts
			signals := map[string]string{}
			for _, s := range v.Signals {
				signals[s.ID] = cell(s.Verdict)
			}
			if want := map[string]string{"parallax": tt.parallax, "notice": tt.notice}; !reflect.DeepEqual(signals, want) {
				t.Errorf("signals %v, want %v\n%+v", signals, want, v.Signals)
			}
			if cell(v.Truth.Verdict) != tt.truth {
				t.Errorf("truth %s (%s), want %s", cell(v.Truth.Verdict), v.Truth.Evidence, tt.truth)
			}
			conditions := map[string]string{}
			for _, c := range v.Gate.Conditions {
				conditions[c.ID] = cell(c.Verdict)
			}
			if !reflect.DeepEqual(conditions, tt.conditions) {
				t.Errorf("conditions %v, want %v\n%+v", conditions, tt.conditions, v)
			}
			if v.Gate.Done != (tt.terminal == agent.Completed) || a.Terminal != tt.terminal {
				t.Errorf("gate %v, terminal %s (%s); want %s", v.Gate.Done, a.Terminal, a.Reason, tt.terminal)
			}
			if got := revisions(t, wiki.DB); got != tt.revisions {
				t.Errorf("the wiki has %d revisions of the page, want %d", got, tt.revisions)
			}
			if tt.terminal != agent.Completed {
				// The refused save shows the editor again with the text typed in it, and the
				// wiki's reason.
				last := a.Steps[len(a.Steps)-1].After
				if !editorHolds(last, "The second line, from an edit.") {
					t.Errorf("after the refused save the editor does not hold the edit's text: %+v", last.Fields)
				}
				if !strings.Contains(last.Text, tt.refusal) {
					t.Errorf("after the refused save the page does not say %q:\n%s", tt.refusal, last.Text)
				}
			}
			rejudge(t, suite, a)
			if b, _ := json.Marshal(run); strings.Contains(string(b), mediawikitest.AdminPassword) {
				t.Error("the wiki's password is in the run")
			}
		})
	}
}

// editorHolds reports whether the page's wikitext editor holds text.
func editorHolds(s agent.Sample, text string) bool {
	for _, f := range s.Fields {
		if f.Name == "Wikitext source editor" && strings.Contains(f.Value, text) {
			return true
		}
	}
	return false
}

// revisions counts the revisions of the page the task writes, in the wiki's database.
func revisions(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	err = db.QueryRow(`select count(*) from revision join page on rev_page = page_id
		where page_namespace = 0 and page_title = 'Observatory_notes'`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
