// Package bundletest changes bundles for tests: the same archive, well formed, with one
// entry's bytes edited, as someone altering a shared bundle would.
package bundletest

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"testing"
)

// Rezip rewrites the bundle at src to dst with the first entry whose name match accepts
// changed by edit: a well-formed archive (lengths and checksums right) whose one entry's
// bytes differ.
func Rezip(t *testing.T, src, dst string, match func(name string) bool, edit func([]byte) []byte) {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	edited := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !edited && match(f.Name) {
			data, edited = edit(data), true
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: f.Method})
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if !edited {
		t.Fatalf("Rezip: %s has no entry to edit", src)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FlipMiddle flips one bit of the middle byte of data.
func FlipMiddle(data []byte) []byte {
	data[len(data)/2] ^= 0x01
	return data
}

// Relive changes one byte of a run file: its source "live" becomes "livE".
func Relive(data []byte) []byte {
	return bytes.Replace(data, []byte(`"source": "live"`), []byte(`"source": "livE"`), 1)
}
