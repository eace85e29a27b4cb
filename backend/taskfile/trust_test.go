package taskfile_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// fakeHome lays out a user's home folder in a temporary folder: secrets in .ssh, a browser's
// cookie database, a session file, and a task folder (tasks) with its own files and symlinks
// that lead out of it. It returns the home folder and the task folder.
func fakeHome(t *testing.T) (home, tasks string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, tasks = filepath.Join(base, "home"), filepath.Join(base, "home", "tasks")
	for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".config", "chromium"), filepath.Join(tasks, "in"), filepath.Join(tasks, "out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range map[string]string{
		filepath.Join(home, ".ssh", "id_ed25519"):             "-----BEGIN OPENSSH PRIVATE KEY-----",
		filepath.Join(home, ".config", "chromium", "Cookies"): "SQLite format 3",
		filepath.Join(home, "bank-session.json"):              `{"cookies": [], "origins": []}`,
		filepath.Join(tasks, "state.json"):                    `{"cookies": [], "origins": []}`,
		filepath.Join(tasks, "app.db"):                        "",
		filepath.Join(tasks, "in", "report.pdf"):              "%PDF",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		filepath.Join(tasks, "ssh"):     filepath.Join(home, ".ssh"),
		filepath.Join(tasks, "cookies"): filepath.Join(home, ".config", "chromium", "Cookies"),
		filepath.Join(tasks, "session"): filepath.Join(home, "bank-session.json"),
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	return home, tasks
}

// TestPathsStayInTheTaskFilesFolder loads hostile task files that name downloads, uploads,
// storage_state and SQLite files outside their folder (by `..`, an absolute path, a symlink
// or ${HOME}): each is refused where it is named, with the flag that would allow it; the
// same file is accepted once the user allows the folder, and files inside load as ever.
func TestPathsStayInTheTaskFilesFolder(t *testing.T) {
	home, tasks := fakeHome(t)
	env := lookup(map[string]string{"HOME": home})
	sql := func(path string) string {
		return fmt.Sprintf("truth:\n  - id: stored\n    sql: {driver: sqlite, path: %q, query: select 1 as one, expr: size(rows) == 1}\n", path)
	}
	session := func(path string) string {
		return fmt.Sprintf("session: {storage_state: %q}\n", path)
	}
	tests := []struct {
		name, extra, at string
	}{
		{"downloads-dotdot", "downloads: ../.ssh\n", "downloads"},
		{"downloads-absolute", "downloads: " + filepath.Join(home, ".ssh") + "\n", "downloads"},
		{"downloads-symlink", "downloads: ssh\n", "downloads"},
		{"uploads-absolute", "uploads: " + filepath.Join(home, ".ssh") + "\n", "uploads"},
		{"uploads-symlink", "uploads: ssh\n", "uploads"},
		{"sql-cookies", sql(filepath.Join(home, ".config", "chromium", "Cookies")), "truth[0].sql.path"},
		{"sql-home-env", sql("${HOME}/.config/chromium/Cookies"), "truth[0].sql.path"},
		{"sql-symlink", sql("cookies"), "truth[0].sql.path"},
		{"storage-absolute", session(filepath.Join(home, "bank-session.json")), "session.storage_state"},
		{"storage-dotdot", session("../bank-session.json"), "session.storage_state"},
		{"storage-symlink", session("session"), "session.storage_state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(tasks, tt.name+".yaml")
			if err := os.WriteFile(path, fmt.Appendf(nil, minimal, tt.extra), 0o644); err != nil {
				t.Fatal(err)
			}
			trust := taskfile.Trust{Env: []string{"HOME"}}
			_, err := taskfile.Load(path, taskfile.Options{LookupEnv: env, Trust: trust})
			want := path + ": at " + tt.at + ": "
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "--allow-path DIR") || !strings.Contains(err.Error(), "outside the file's folder") {
				t.Fatalf("Load = %v; want a refusal at %s naming --allow-path", err, tt.at)
			}
			trust.Paths = []string{home}
			if _, err := taskfile.Load(path, taskfile.Options{LookupEnv: env, Trust: trust}); err != nil {
				t.Errorf("with %s allowed: %v", home, err)
			}
		})
	}
	inside := filepath.Join(tasks, "inside.yaml")
	extra := "uploads: in\ndownloads: out\n" + session("state.json") + sql("app.db")
	if err := os.WriteFile(inside, fmt.Appendf(nil, minimal, extra), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := taskfile.Load(inside, taskfile.Options{LookupEnv: env})
	if err != nil {
		t.Fatal(err)
	}
	if task := s.Task(); task.Uploads != filepath.Join(tasks, "in") || task.Downloads != filepath.Join(tasks, "out") {
		t.Errorf("folders %q, %q; want in and out beside the task file", task.Uploads, task.Downloads)
	}
}

// TestAFileInNoFolderNamesOnlyAllowedPaths: a task file opened as text (or built in) lives in
// no folder, so every path it names must lie in a folder the user allowed.
func TestAFileInNoFolderNamesOnlyAllowedPaths(t *testing.T) {
	home, tasks := fakeHome(t)
	data := fmt.Appendf(nil, minimal, "downloads: "+filepath.Join(tasks, "out")+"\n")
	_, err := taskfile.Parse("pasted.yaml", data, "", taskfile.Options{})
	if err == nil || !strings.Contains(err.Error(), "the file lives in no folder") || !strings.Contains(err.Error(), "--allow-path") {
		t.Errorf("Parse = %v; want a refusal saying the file has no folder", err)
	}
	if _, err := taskfile.Parse("pasted.yaml", data, "", taskfile.Options{Trust: taskfile.Trust{Paths: []string{home}}}); err != nil {
		t.Errorf("with %s allowed: %v", home, err)
	}
}

// TestMetadataHostsAreRefusedAsOrigins loads task files whose start URL, base URL, origins
// or HTTP conditions lead to link-local or cloud-metadata hosts: each is refused before any
// request, naming --allow-link-local, and accepted with it.
func TestMetadataHostsAreRefusedAsOrigins(t *testing.T) {
	const task = "schema: observatory.task/v1\nname: t\nintent: Do it.\n%s\nsuccess:\n  - id: ok\n    %s\n"
	const page = "page: {text: Done}"
	tests := []struct{ name, where, cond, at string }{
		{"start-url", "start_url: http://169.254.169.254/latest/meta-data/", page, "start_url"},
		{"base-url", "base_url: http://metadata.google.internal/\nstart_url: /computeMetadata/v1/", page, "base_url"},
		{"origin", "start_url: http://127.0.0.1:8080/\norigins: [http://127.0.0.1:8080, \"http://[fd00:ec2::254]\"]", page, "origins[1]"},
		{"ipv6-link-local", "start_url: \"http://[fe80::a9fe:a9fe]/\"", page, "start_url"},
		{"http-oracle", "start_url: http://127.0.0.1:8080/\norigins: [http://127.0.0.1:8080, http://metadata]",
			"http: {url: \"http://metadata/latest/api/token\", expr: status == 200}", "origins[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := fmt.Appendf(nil, task, tt.where, tt.cond)
			_, err := taskfile.Parse(tt.name+".yaml", data, "", taskfile.Options{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.name+".yaml: at "+tt.at+": ") || !strings.Contains(err.Error(), "--allow-link-local") {
				t.Fatalf("Parse = %v; want a refusal at %s naming --allow-link-local", err, tt.at)
			}
			if _, err := taskfile.Parse(tt.name+".yaml", data, "", taskfile.Options{Trust: taskfile.Trust{LinkLocal: true}}); err != nil {
				t.Errorf("with link-local hosts allowed: %v", err)
			}
		})
	}
}

// TestEnvironmentVariablesNeedTheUsersLeave loads hostile task files that read a secret from
// the environment in base_url, a header and a typed value: each is listed, refused before
// anything is sent with the flag that allows it, allowed only by its own name (never by a
// pattern), and allowed by the user's interactive yes.
func TestEnvironmentVariablesNeedTheUsersLeave(t *testing.T) {
	const secret = "wJalrXUtnFEMI-FAKE-never-sent"
	env := lookup(map[string]string{"AWS_SECRET_ACCESS_KEY": secret, "APP_HOST": "127.0.0.1:8080"})
	const header = "success:\n  - id: ok\n    http: {url: /api, headers: {X-Key: \"${AWS_SECRET_ACCESS_KEY}\"}, expr: status == 200}\n"
	tests := []struct {
		name, file string
		at         string // where a load refuses it; "" when only starting an attempt does
	}{
		{"base-url", "schema: observatory.task/v1\nname: t\nintent: Do it.\nbase_url: http://127.0.0.1:8080/?k=${AWS_SECRET_ACCESS_KEY}\nstart_url: /\nsuccess:\n  - id: ok\n    page: {text: Done}\n", "base_url"},
		{"header", "schema: observatory.task/v1\nname: t\nintent: Do it.\nbase_url: http://${APP_HOST}/\nstart_url: /\n" + header, ""},
		{"value-env", fmt.Sprintf(minimal, "plan:\n  - {description: Type it, action: fill, target: {label: Note}, value_env: AWS_SECRET_ACCESS_KEY}\n"), ""},
		{"model-key", fmt.Sprintf(minimal, "planner:\n  models: [{provider: openai, model: m, base_url: \"http://127.0.0.1:9/v1\", api_key_env: AWS_SECRET_ACCESS_KEY}]\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.file)
			for _, trust := range []taskfile.Trust{{}, {Env: []string{"*"}}, {Env: []string{"AWS_*"}}} {
				trust.Env = append(trust.Env, "APP_HOST")
				s, err := taskfile.Parse(tt.name+".yaml", data, "", taskfile.Options{LookupEnv: env, Trust: trust})
				if tt.at != "" {
					if err == nil || !strings.HasPrefix(err.Error(), tt.name+".yaml: at "+tt.at+": ") || !strings.Contains(err.Error(), "--allow-env AWS_SECRET_ACCESS_KEY") {
						t.Errorf("trust %v: Parse = %v; want a refusal at %s naming --allow-env AWS_SECRET_ACCESS_KEY", trust.Env, err, tt.at)
					}
					continue
				}
				if err != nil {
					t.Fatalf("trust %v: %v", trust.Env, err)
				}
				vars := s.Outline().Env
				if i := slices.IndexFunc(vars, func(v taskfile.EnvVar) bool { return v.Name == "AWS_SECRET_ACCESS_KEY" }); i < 0 || vars[i].Allowed || !vars[i].Secret {
					t.Errorf("trust %v: the outline lists %+v; want AWS_SECRET_ACCESS_KEY, secret and not allowed", trust.Env, vars)
				}
				if _, err := s.Start(context.Background(), s.Attempts()[0]); err == nil || !strings.Contains(err.Error(), "--allow-env AWS_SECRET_ACCESS_KEY") {
					t.Errorf("trust %v: Start = %v; want a refusal naming --allow-env", trust.Env, err)
				}
				if _, err := runner.Check(s, nil, 1, agent.ConfigOverride{}); err == nil || !strings.Contains(err.Error(), "looks secret") {
					t.Errorf("trust %v: the run is not refused before it is recorded: %v", trust.Env, err)
				}
			}
			byName := taskfile.Trust{Env: []string{"AWS_SECRET_ACCESS_KEY", "APP_HOST"}}
			if _, err := taskfile.Parse(tt.name+".yaml", data, "", taskfile.Options{LookupEnv: env, Trust: byName}); err != nil {
				t.Errorf("allowed by name: %v", err)
			}
			var asked []taskfile.EnvVar
			yes := func(vars []taskfile.EnvVar) bool { asked = vars; return true }
			s, err := taskfile.Parse(tt.name+".yaml", data, "", taskfile.Options{LookupEnv: env, Trust: taskfile.Trust{Env: []string{"APP_HOST"}}, Confirm: yes})
			if err != nil || !slices.ContainsFunc(asked, func(v taskfile.EnvVar) bool { return v.Name == "AWS_SECRET_ACCESS_KEY" && !v.Allowed }) {
				t.Fatalf("with a yes: %v, asked about %+v", err, asked)
			}
			if _, err := s.Start(context.Background(), s.Attempts()[0]); err != nil {
				t.Errorf("Start after a yes: %v", err)
			}
			if strings.Contains(string(s.Spec()), secret) || strings.Contains(fmt.Sprint(s.Task(), s.Plan()), secret) {
				t.Errorf("the secret is in the spec, task or plan: %s", s.Spec())
			}
		})
	}
}
