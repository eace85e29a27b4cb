package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"observatory/app"
)

// header opens every generated file: where it comes from and how to remake it.
const header = "// Generated from the Go types by `go run -tags bindings ./app/bindgen frontend/src/api/generated`.\n" +
	"// Do not edit: change the Go type and regenerate (app/bindgen's test fails until then).\n"

// Write generates the contract into dir: models.ts and one <Service>.d.ts per bound service,
// replacing what dir held.
func Write(dir string) error {
	out, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bindgen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := generate(work); err != nil {
		return err
	}
	goDir := filepath.Join(work, "wailsjs", "go")
	files := map[string]string{"models.ts": filepath.Join(goDir, "models.ts")}
	bound, err := filepath.Glob(filepath.Join(goDir, "app", "*.d.ts"))
	if err != nil {
		return err
	}
	for _, f := range bound {
		files[filepath.Base(f)] = f
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, from := range files {
		text, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		// The services' declarations import the models from their parent folder in Wails'
		// layout; here the two sit side by side.
		body := shadowed(strings.ReplaceAll(string(text), "from '../models'", "from './models'"))
		if err := os.WriteFile(filepath.Join(out, name), []byte(header+body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generate runs Wails' generator in a project folder of its own at work, which Wails finds
// through the working directory's wails.json, and leaves its output in work/wailsjs.
func generate(work string) error {
	cfg, err := json.Marshal(map[string]string{"name": "observatory", "wailsjsdir": work})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "wails.json"), cfg, 0o644); err != nil {
		return err
	}
	back, err := os.Getwd()
	if err != nil {
		return err
	}
	if err := os.Chdir(work); err != nil {
		return err
	}
	defer os.Chdir(back)
	// Wails reads its generator's own flags from the command line; it gets none of ours.
	os.Args = os.Args[:1]
	if err := os.Setenv("tsoutputtype", "interfaces"); err != nil {
		return err
	}
	// Wails' type converter narrates every field it meets on standard output (and, past
	// reach of this, the types it leaves as any on standard error); its failures come back
	// as errors.
	quiet, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer quiet.Close()
	stdout := os.Stdout
	os.Stdout = quiet
	defer func() { os.Stdout = stdout }()
	if err := bind(app.New(app.Options{}).Bind()); err != nil {
		return fmt.Errorf("generating the bindings: %w", err)
	}
	return nil
}

// field is one property line of a generated interface, "    name?: type;".
var field = regexp.MustCompile(`^\s+(\w+)\??: `)

// shadowed drops the properties a Go struct's own fields shadow. Wails writes an embedded
// struct's fields and then the embedding struct's, so a struct that overrides an embedded
// field (store.AttemptHeader's summary steps over agent.Attempt's steps) would declare it
// twice, which TypeScript rejects; as in Go, the embedding struct's, the later one, wins.
func shadowed(ts string) string {
	lines := strings.Split(ts, "\n")
	keep := make([]bool, len(lines))
	seen := map[string]bool{}
	for i := len(lines) - 1; i >= 0; i-- {
		keep[i] = true
		line := lines[i]
		switch {
		case strings.HasSuffix(strings.TrimSpace(line), "{"):
			seen = map[string]bool{} // the block opening; the walk goes upwards
		case field.MatchString(line):
			name := field.FindStringSubmatch(line)[1]
			keep[i] = !seen[name]
			seen[name] = true
		}
	}
	var out []string
	for i, line := range lines {
		if keep[i] {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
