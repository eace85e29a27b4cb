package runfile

import (
	"testing"

	"observatory/backend/agent"
)

// TestATaskIsTheSameWhereverItsFoldersAre: a run verified on another machine, or from
// another folder, resolves the task's uploads and downloads folders elsewhere; that is not a
// different task, while another intent or origin is.
func TestATaskIsTheSameWhereverItsFoldersAre(t *testing.T) {
	recorded := agent.Task{Name: "send-report", Intent: "Send the report", StartURL: "/", Origins: []string{"http://127.0.0.1:1"},
		Uploads: "/home/ada/tasks/uploads", Downloads: "/home/ada/tasks/downloads"}
	here := recorded
	here.Uploads, here.Downloads = "/tmp/verify/uploads", ""
	if !sameTask(recorded, here) {
		t.Error("the same task with its folders elsewhere is called another task")
	}
	other := here
	other.Intent = "Delete the report"
	if sameTask(recorded, other) {
		t.Error("a task with another intent is called the same")
	}
	other = here
	other.Origins = []string{"http://evil.example"}
	if sameTask(recorded, other) {
		t.Error("a task with other origins is called the same")
	}
}
