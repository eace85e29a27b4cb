package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheArchitectureMapNamesEveryPackage keeps docs/architecture.md true: every folder of the
// tree that holds Go code has its row there, written as `folder/`.
func TestTheArchitectureMapNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{".git": true, "node_modules": true, "testdata": true, "frontend": true, "build": true}
	seen := map[string]bool{}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (skip[d.Name()] || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || filepath.Dir(path) == "." {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !seen[dir] {
			seen[dir] = true
			if !strings.Contains(string(doc), "`"+dir+"/`") {
				t.Errorf("docs/architecture.md has no row for the package %s/", dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 10 {
		t.Fatalf("found only %d packages: the walk is broken", len(seen))
	}
}

// TestTheReadmeStaysShort keeps the README to what a newcomer reads in a screenful or two;
// the rest belongs in docs/.
func TestTheReadmeStaysShort(t *testing.T) {
	fi, err := os.Stat("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() >= 12*1024 {
		t.Errorf("README.md is %d bytes, want under 12 KiB: move detail to docs/", fi.Size())
	}
}
