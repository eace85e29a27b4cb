package taskfile_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// TestANoticeNamesWhereItIsShown loads notice signals as text and with a place: a place
// becomes one of the task's notice places under the signal's id, the spec writes a notice
// without one as its text, and the task rebuilt from the spec names the same places.
func TestANoticeNamesWhereItIsShown(t *testing.T) {
	data := fmt.Sprintf(minimal, `signals:
  - {id: saved, notice: Saved}
  - {id: toast, notice: {text: Expense added., target: {css: .snackbar}}}
  - {id: flash, notice: {text: Done., target: {test_id: flash}}}
`)
	suite, err := taskfile.Parse("notice.yaml", []byte(data), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.NoticePlace{{ID: "toast", CSS: ".snackbar"}, {ID: "flash", TestID: "flash"}}
	if got := suite.Task().Notices; !reflect.DeepEqual(got, want) {
		t.Errorf("the task's notice places are %+v, want %+v", got, want)
	}
	spec := string(suite.Spec())
	if !strings.Contains(spec, `"notice":"Saved"`) || !strings.Contains(spec, `"notice":{"text":"Expense added.","target":{"css":".snackbar"}}`) {
		t.Errorf("the spec writes the notices as %s", spec)
	}
	rebuilt, err := taskfile.FromSpec(suite.Spec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rebuilt.Task().Notices; !reflect.DeepEqual(got, want) {
		t.Errorf("rebuilt from its spec, the task's notice places are %+v, want %+v", got, want)
	}
}

// TestABadNoticeIsRefusedAtItsPath refuses notices with no text, a place given by what an
// observation cannot watch, or two places, and more places than a task may name.
func TestABadNoticeIsRefusedAtItsPath(t *testing.T) {
	var many strings.Builder
	many.WriteString("signals:\n")
	for i := range agent.MaxNotices + 1 {
		fmt.Fprintf(&many, "  - {id: n%d, notice: {text: Saved, target: {css: '#n%d'}}}\n", i, i)
	}
	const where = "give exactly one of test_id, css: the element the notice is shown in"
	tests := []struct{ signals, want string }{
		{"signals: [{id: n, notice: ''}]", "at signals[0].notice.text: give the notice's text"},
		{"signals: [{id: n, notice: {target: {css: .toast}}}]", "at signals[0].notice.text: give the notice's text"},
		{"signals: [{id: n, notice: 3}]", "at signals[0].notice: want the notice's text or {text, target}, got a number"},
		{"signals: [{id: n, notice: {text: Saved, target: {role: status}}}]", "at signals[0].notice.target: " + where},
		{"signals: [{id: n, notice: {text: Saved, target: {css: .a, test_id: b}}}]", "at signals[0].notice.target: " + where},
		{"signals: [{id: n, notice: {text: Saved, target: {css: .a, frame: {title: Editor}}}}]", "at signals[0].notice.target: " + where},
		{"signals: [{id: n, notice: {text: Saved, place: .a}}]", "at signals[0].notice.place: unknown field"},
		{many.String(), fmt.Sprintf("at signals[%d].notice: more than %d notices", agent.MaxNotices, agent.MaxNotices)},
	}
	for _, tt := range tests {
		refused(t, "notice.yaml", func() error {
			_, err := taskfile.Parse("notice.yaml", []byte(fmt.Sprintf(minimal, tt.signals+"\n")), "", taskfile.Options{})
			return err
		}, "notice.yaml: "+tt.want)
	}
}
