// Package storetest helps tests put a data folder in the states users' folders are in, and
// check that a store survived what they did to it.
package storetest

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ReadOnly makes dir and everything in it unwritable until the test ends, the way a
// read-only mount or another user's folder is. File modes do not
// stop root, so as root (CI and the development machines run as root) it bind-mounts dir
// read-only over itself instead, and skips the test if mounting is not allowed here.
func ReadOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		mountReadOnly(t, dir)
	} else {
		chmodReadOnly(t, dir)
	}
	if err := os.WriteFile(filepath.Join(dir, ".probe"), nil, 0o600); !errors.Is(err, fs.ErrPermission) && !isReadOnlyFS(err) {
		t.Fatalf("writing into the read-only folder %s: %v, want a refusal", dir, err)
	}
}

func mountReadOnly(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("mount", "--bind", dir, dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s read-only as root: mount --bind: %v: %s", dir, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s read-only as root: mount -o remount,bind,ro: %v: %s", dir, err, out)
	}
}

func chmodReadOnly(t *testing.T, dir string) {
	t.Helper()
	var paths []string
	modes := map[string]fs.FileMode{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		paths = append(paths, p)
		modes[p] = info.Mode().Perm()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range paths {
			os.Chmod(p, modes[p])
		}
	})
	for i := len(paths) - 1; i >= 0; i-- { // files before their folders
		if err := os.Chmod(paths[i], modes[paths[i]]&^0o222); err != nil {
			t.Fatal(err)
		}
	}
}
