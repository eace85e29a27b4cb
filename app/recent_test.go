package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/store"
	"observatory/backend/taskfile"
)

// taskText is a valid task file named name; extra is more top-level YAML.
func taskText(name, extra string) string {
	return fmt.Sprintf(`schema: observatory.task/v1
name: %s
intent: Do it.
start_url: http://127.0.0.1:8080/
success:
  - {id: ok, page: {text: Done}}
%s`, name, extra)
}

// servicesOn starts the services on the data folder dir, as the desktop does, with dialogs;
// stop ends them, as quitting does.
func servicesOn(t *testing.T, dir string, dialogs Dialogs) (s *Services, stop func()) {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s = New(Options{Store: st, DataDir: dir, Dialogs: dialogs})
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			s.Shutdown()
			st.Close()
		}
	}
	t.Cleanup(stop)
	return s, stop
}

// fileTasks are the task files the services list, in order; the list must not fail.
func fileTasks(t *testing.T, s *Services) []TaskInfo {
	t.Helper()
	all, err := s.Tasks.List()
	if err != nil {
		t.Fatalf("the task list fails: %v", err)
	}
	var out []TaskInfo
	for _, ti := range all {
		if strings.HasPrefix(ti.Ref, filePrefix) {
			out = append(out, ti)
		}
	}
	return out
}

func refsOf(tasks []TaskInfo) []string {
	var out []string
	for _, ti := range tasks {
		out = append(out, ti.Ref)
	}
	return out
}

// TestRecentTasks checks the recent task files the window lists: a file picked in the native
// dialog (remembered by its path, its relative paths kept to its folder) and a file whose text
// the UI sent; both survive a restart of the services, newest first; a refused file adds no
// entry; a file that vanished is listed as missing, and cannot run, without failing the list;
// forgetting one drops it for good; the list keeps the newest maxRecent.
func TestRecentTasks(t *testing.T) {
	data, files := t.TempDir(), t.TempDir()
	picked := filepath.Join(files, "signed-in-task.yaml")
	// The storage state is found beside the task file only when the task is read from its path.
	if err := os.WriteFile(picked, []byte(taskText("picked", "session: {storage_state: state.json}\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "state.json"), []byte(`{"cookies": [], "origins": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	serve, _ := servicesOn(t, t.TempDir(), nil)
	if _, err := serve.Tasks.OpenDialog(); !errors.Is(err, ErrNoDialogs) {
		t.Errorf("outside the desktop the dialog gives %v", err)
	}
	var filter FileFilter
	dialogs := &fakeDialogs{open: picked, filter: &filter}
	s, stop := servicesOn(t, data, dialogs)

	opened, err := s.Tasks.OpenDialog()
	if err != nil {
		t.Fatal(err)
	}
	if filter != TaskFiles || opened.Path != picked || opened.File != "signed-in-task.yaml" || opened.Task.Name != "picked" || opened.Missing != "" {
		t.Errorf("the dialog showed %+v and opened %+v", filter, opened)
	}
	sent, err := s.Tasks.Load("sent.yaml", taskText("sent", ""))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{sent.Ref, opened.Ref}
	if got := refsOf(fileTasks(t, s)); !reflect.DeepEqual(got, want) {
		t.Fatalf("the recent tasks are %v, want %v (newest first)", got, want)
	}

	// Refused files, sent or picked, add nothing, and a cancelled dialog nothing either.
	recentJSON, err := os.ReadFile(filepath.Join(data, "tasks", "recent.json"))
	if err != nil {
		t.Fatal(err)
	}
	var te *taskfile.Error
	if _, err := s.Tasks.Load("bad.yaml", taskText("bad", "plan:\n  - {description: Go, action: fly}\n")); !errors.As(err, &te) || te.Path != "plan[0].action" {
		t.Errorf("a bad task file sent: %v, want it refused at plan[0].action", err)
	}
	bad := filepath.Join(files, "bad.yaml")
	if err := os.WriteFile(bad, []byte(taskText("bad", "session: {storage_state: nowhere.json}\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	dialogs.open = bad
	if _, err := s.Tasks.OpenDialog(); !errors.As(err, &te) || te.Path != "session.storage_state" {
		t.Errorf("a bad task file picked: %v, want it refused at session.storage_state", err)
	}
	dialogs.open = ""
	if info, err := s.Tasks.OpenDialog(); err != nil || info.Ref != "" {
		t.Errorf("a cancelled dialog: %+v, %v", info, err)
	}
	if after, err := os.ReadFile(filepath.Join(data, "tasks", "recent.json")); err != nil || string(after) != string(recentJSON) {
		t.Errorf("refused files changed the recent tasks: %s", after)
	}
	if got := refsOf(fileTasks(t, s)); !reflect.DeepEqual(got, want) {
		t.Errorf("after refusals the recent tasks are %v, want %v", got, want)
	}

	// A restart keeps them; a file that vanished is listed as missing and cannot run.
	stop()
	s, stop = servicesOn(t, data, dialogs)
	if got := refsOf(fileTasks(t, s)); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a restart the recent tasks are %v, want %v", got, want)
	}
	if err := os.Remove(picked); err != nil {
		t.Fatal(err)
	}
	listed := fileTasks(t, s)
	if len(listed) != 2 || !strings.Contains(listed[1].Missing, picked+" is missing") || listed[1].File != "signed-in-task.yaml" || listed[0].Missing != "" {
		t.Errorf("with the picked file gone the list is %+v", listed)
	}
	if _, err := s.Runs.Start(StartRequest{Task: opened.Ref}); err == nil || !strings.Contains(err.Error(), "is missing") {
		t.Errorf("starting a missing task: %v", err)
	}
	if err := os.Remove(filepath.Join(data, "tasks", strings.TrimPrefix(sent.Ref, filePrefix)+".task")); err != nil {
		t.Fatal(err)
	}
	if listed := fileTasks(t, s); len(listed) != 2 || !strings.Contains(listed[0].Missing, "gone") {
		t.Errorf("with the kept copy gone the list is %+v", listed)
	}

	// Forgetting drops a task for good; a lab's task cannot be forgotten.
	if err := s.Tasks.Forget(opened.Ref); err != nil {
		t.Fatal(err)
	}
	if err := s.Tasks.Forget("lab:booking"); err == nil {
		t.Error("a lab's task was forgotten")
	}
	stop()
	s, _ = servicesOn(t, data, dialogs)
	if got := refsOf(fileTasks(t, s)); !reflect.DeepEqual(got, []string{sent.Ref}) {
		t.Errorf("after forgetting and a restart the recent tasks are %v, want %v", got, []string{sent.Ref})
	}

	// The list is bounded: the newest maxRecent stay, and the kept texts of the rest go.
	var refs []string
	for i := range maxRecent + 5 {
		info, err := s.Tasks.Load(fmt.Sprintf("t%d.yaml", i), taskText(fmt.Sprintf("t%d", i), ""))
		if err != nil {
			t.Fatal(err)
		}
		refs = append([]string{info.Ref}, refs...)
	}
	if got := refsOf(fileTasks(t, s)); !reflect.DeepEqual(got, refs[:maxRecent]) {
		t.Errorf("the list holds %d tasks, want the newest %d", len(got), maxRecent)
	}
	kept, err := filepath.Glob(filepath.Join(data, "tasks", "*.task"))
	if err != nil || len(kept) != maxRecent {
		t.Errorf("%d task texts are kept, want %d (%v)", len(kept), maxRecent, err)
	}
}
