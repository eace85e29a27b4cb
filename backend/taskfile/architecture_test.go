package taskfile_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestTaskFilesKnowNoLab guards the architecture: backend/taskfile declares the lab it needs
// (taskfile.Lab) and is given the registry, so its code depends, directly or not, on no
// package of backend/labs. `go list` reads the import graph without compiling anything; app,
// which passes the registry, shows the check would see one.
func TestTaskFilesKnowNoLab(t *testing.T) {
	const pkg, labs, root = "observatory/backend/taskfile", "observatory/backend/labs", "observatory/app"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, pkg, root).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		if f := strings.Fields(line); len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if len(deps[pkg]) == 0 {
		t.Fatalf("go list gave no dependencies of %s:\n%s", pkg, out)
	}
	isLab := func(d string) bool { return d == labs || strings.HasPrefix(d, labs+"/") }
	if i := slices.IndexFunc(deps[pkg], isLab); i >= 0 {
		t.Errorf("%s imports %s: give it a lab through Options.Labs instead", pkg, deps[pkg][i])
	}
	if !slices.ContainsFunc(deps[root], isLab) {
		t.Errorf("%s no longer imports %s: the check must name a package that does", root, labs)
	}
}
