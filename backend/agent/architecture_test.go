package agent_test

import (
	"os/exec"
	"strings"
	"testing"
)

// adapters are the module paths of the technologies the domain must not know, each with a
// package that does import it, which shows the check would see one.
var adapters = []struct{ name, prefix, importer string }{
	{"Playwright", "github.com/mxschmitt/playwright-go", "observatory/backend/browser"},
	{"GORM", "gorm.io/", "observatory/backend/store"},
	{"Wails", "github.com/wailsapp/", "observatory/app/desktop"},
	{"CEL", "github.com/google/cel-go", "observatory/backend/oracle"},
	{"CEL", "cel.dev/expr", "observatory/backend/oracle"},
}

// TestTheDomainImportsNoAdapter guards the architecture: backend/agent, the domain whose
// ports the adapters implement, depends (directly or not) on neither Playwright, GORM, Wails
// nor CEL. `go list` reads the import graph without compiling anything.
func TestTheDomainImportsNoAdapter(t *testing.T) {
	const domain = "observatory/backend/agent"
	pkgs := []string{domain}
	for _, a := range adapters {
		pkgs = append(pkgs, a.importer)
	}
	out, err := exec.Command("go", append([]string{"list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`}, pkgs...)...).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if len(deps[domain]) == 0 {
		t.Fatalf("go list gave no dependencies of %s:\n%s", domain, out)
	}
	imports := func(pkg, prefix string) []string {
		var found []string
		for _, d := range deps[pkg] {
			if strings.HasPrefix(d, prefix) {
				found = append(found, d)
			}
		}
		return found
	}
	for _, a := range adapters {
		if found := imports(domain, a.prefix); len(found) > 0 {
			t.Errorf("%s imports %s: %v", domain, a.name, found)
		}
		if len(imports(a.importer, a.prefix)) == 0 {
			t.Errorf("%s no longer imports %s (%s): the check must name where %s is now", a.importer, a.name, a.prefix, a.name)
		}
	}
}
