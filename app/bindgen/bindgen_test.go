package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// committed is the contract the frontend types from.
var committed = filepath.Join("..", "..", "frontend", "src", "api", "generated")

// TestTheCommittedContractIsWhatGoGenerates regenerates the contract from the Go types and
// fails when the committed files differ: a Go field renamed, added or retyped must reach the
// frontend (whose type check then fails wherever it reads the old shape).
func TestTheCommittedContractIsWhatGoGenerates(t *testing.T) {
	fresh := t.TempDir()
	cmd := exec.Command("go", "run", "-tags", "bindings", ".", fresh)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generating the contract: %v\n%s", err, lastLines(out, 20))
	}
	want, got := names(t, fresh), names(t, committed)
	if !slices.Equal(want, got) {
		t.Fatalf("the generated files are %v, the committed ones %v; run `go run -tags bindings ./app/bindgen frontend/src/api/generated`", want, got)
	}
	for _, name := range want {
		a, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(committed, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("frontend/src/api/generated/%s differs from what the Go types generate; run `go run -tags bindings ./app/bindgen frontend/src/api/generated`", name)
		}
	}
}

// TestAFailedGenerationLeavesTheFolderAlone: built without the bindings tag (where wails.Run
// would open a window) the generator refuses, and the contract already there stays.
func TestAFailedGenerationLeavesTheFolderAlone(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "models.ts")
	if err := os.WriteFile(kept, []byte("export {};\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir); err == nil {
		t.Fatal("Write without the bindings tag succeeded")
	}
	if b, err := os.ReadFile(kept); err != nil || string(b) != "export {};\n" {
		t.Fatalf("the folder's contract was touched: %q, %v", b, err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func lastLines(b []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, []byte("\n"))
}
