package taskfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// TestUploadAndDownloadFolders loads tasks with upload and download steps: the folders
// resolve against the task file's folder and reach the task; a missing folder, a step
// without its folder and an upload path that leaves the folder are refused where they are.
func TestUploadAndDownloadFolders(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"in", "out"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const upload = "plan:\n  - {description: Attach the report, action: upload, target: {label: File}, value: %s}\n"
	const download = "plan:\n  - {description: Save the statement, action: download, target: {role: link, name: Statement}}\n"
	write := func(name, extra string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(fmt.Sprintf(minimal, extra)), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ok := write("ok.yaml", "uploads: in\ndownloads: out\n"+fmt.Sprintf(upload, "reports/q3.pdf"))
	s, err := taskfile.Load(ok, taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	task := s.Task()
	if task.Uploads != filepath.Join(dir, "in") || task.Downloads != filepath.Join(dir, "out") {
		t.Errorf("folders %q, %q; want in and out beside the task file", task.Uploads, task.Downloads)
	}
	if p := s.Plan(); len(p) != 1 || p[0].Kind != agent.ActUpload || p[0].Value != "reports/q3.pdf" {
		t.Errorf("plan %+v, want the upload", p)
	}
	for name, tt := range map[string]struct{ extra, want string }{
		"missing.yaml":     {"uploads: nowhere\n", "at uploads: stat " + filepath.Join(dir, "nowhere") + ": no such file or directory; create the folder"},
		"file.yaml":        {"downloads: ok.yaml\n", "at downloads: " + filepath.Join(dir, "ok.yaml") + " is not a folder"},
		"no-uploads.yaml":  {fmt.Sprintf(upload, "q3.pdf"), "at plan[0]: an upload step needs the task's uploads folder: set `uploads:`"},
		"no-download.yaml": {download, "at plan[0]: a download step needs the task's downloads folder: set `downloads:`"},
		"dotdot.yaml":      {"uploads: in\n" + fmt.Sprintf(upload, "../.ssh/id_ed25519"), "at plan[0].value: \"../.ssh/id_ed25519\": `..` leaves the uploads folder"},
		"absolute.yaml":    {"uploads: in\n" + fmt.Sprintf(upload, "/etc/passwd"), "at plan[0].value: \"/etc/passwd\" is an absolute path"},
	} {
		path := write(name, tt.extra)
		refused(t, path, func() error { _, err := taskfile.Load(path, taskfile.Options{}); return err }, path+": "+tt.want)
	}
}
