package runfile

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestFramesContainersAndOptionalStepsSurviveTheRoundTrip writes a step whose target is in a
// nested frame and a row, and an optional step, and reads them back; a target nested in
// more frames than a target can name is refused with its path.
func TestFramesContainersAndOptionalStepsSurviveTheRoundTrip(t *testing.T) {
	f := goodFile()
	steps := f.Run.Attempts[1].Steps
	steps[1].Action.Target.Frames = agent.FramePath{{Title: "Editor"}, {CSS: "iframe.inner"}}
	steps[1].Action.Target.Within = agent.Container{Role: "row", Name: "Invoice 42"}
	steps[0].Action.Optional, steps[0].Action.Setup = true, true
	got, err := Decode(bytes.NewReader(encoded(t, f)))
	if err != nil {
		t.Fatal(err)
	}
	back := got.Run.Attempts[1].Steps
	if back[1].Action.Target != steps[1].Action.Target || !back[0].Action.Optional || !back[0].Action.Setup {
		t.Errorf("read back %+v and %+v", back[1].Action.Target, back[0].Action)
	}
	data := encoded(t, f)
	deep := strings.Replace(string(data), `"frame": [`, `"frame": [`+strings.Repeat(`{"title": "Outer"},`, agent.MaxFrameDepth-1), 1)
	if deep == string(data) {
		t.Fatal("the frame list is not where the test looks for it")
	}
	var rerr *Error
	if _, err := Decode(strings.NewReader(deep)); !errors.As(err, &rerr) || !strings.Contains(err.Error(), "attempts[1].steps[1].action.target.frame") {
		t.Errorf("a target in %d frames: %v", agent.MaxFrameDepth+1, err)
	}
}
