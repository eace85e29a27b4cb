package taskfile_test

import (
	"fmt"
	"testing"

	"observatory/backend/taskfile"
)

// TestAPageConditionsFrameIsCheckedAtItsPath loads page conditions that read inside a frame,
// one or nested, and refuses a frame by CSS, and a frame or container on the condition's
// target, each at its path.
func TestAPageConditionsFrameIsCheckedAtItsPath(t *testing.T) {
	const task = `schema: observatory.task/v1
name: t
intent: Do it.
start_url: http://127.0.0.1:8080/
success:
  - id: ok
    page: %s
`
	for _, ok := range []string{"{text: Saved, frame: {title: Notes}}", "{visible: {role: heading, name: Hello}, frame: [{title: Editor}, {name: preview}]}"} {
		if _, err := taskfile.Parse("frame.yaml", []byte(fmt.Sprintf(task, ok)), "", taskfile.Options{}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	tests := []struct{ page, want string }{
		{"{text: Saved, frame: {css: iframe}}", "at success[0].page.frame: a page condition names a frame by exactly one of title, name"},
		{"{text: Saved, frame: [{title: A}, {title: B}, {title: C}, {title: D}, {title: E}]}", "at success[0].page.frame: 5 frames nested: at most 4"},
		{"{visible: {label: Note, frame: {title: Notes}}}", "at success[0].page.visible: a page condition's target has no frame or within"},
		{"{value: {target: {label: Note, within: {role: form}}, equals: x}}", "at success[0].page.value.target: a page condition's target has no frame or within"},
	}
	for _, tt := range tests {
		refused(t, "frame.yaml", func() error {
			_, err := taskfile.Parse("frame.yaml", []byte(fmt.Sprintf(task, tt.page)), "", taskfile.Options{})
			return err
		}, "frame.yaml: "+tt.want)
	}
}
