package browser

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// unpackZip extracts the zip archive at src into dir, keeping executable bits and the links
// macOS builds hold, and reports files as "unpack". An entry that would land outside dir is
// refused. It stops when ctx ends.
func unpackZip(ctx context.Context, src, dir string, progress ProgressFunc) error {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return fmt.Errorf("open the downloaded archive: %w (the download may be damaged; try again)", err)
	}
	defer zr.Close()
	total := int64(len(zr.File))
	for i, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return err
		}
		dst, err := entryPath(dir, f.Name)
		if err != nil {
			return err
		}
		if err := unpackZipEntry(f, dir, dst); err != nil {
			return fmt.Errorf("unpack %s: %w", f.Name, err)
		}
		progress(Progress{Phase: "unpack", Done: int64(i + 1), Total: total})
	}
	return nil
}

// unpackZipEntry writes one zip entry to dst, within dir.
func unpackZipEntry(f *zip.File, dir, dst string) error {
	mode := f.Mode()
	if mode.IsDir() {
		return os.MkdirAll(dst, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	if mode&fs.ModeSymlink != 0 {
		target, err := io.ReadAll(io.LimitReader(rc, 4096))
		if err != nil {
			return err
		}
		return symlinkInside(dir, string(target), dst)
	}
	return writeFile(dst, rc, mode.Perm())
}

// symlinkInside makes dst a link to target, which must stay within dir.
func symlinkInside(dir, target, dst string) error {
	rel, err := filepath.Rel(dir, filepath.Join(filepath.Dir(dst), target))
	if filepath.IsAbs(target) || err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("a link to %q leaves the archive; refused", target)
	}
	return os.Symlink(target, dst)
}

// unpackTarGz extracts the regular files under prefix of the gzipped tar src into dir, which
// they land in with prefix kept; others are skipped.
func unpackTarGz(src io.Reader, prefix, dir string) error {
	gz, err := gzip.NewReader(src)
	if err != nil {
		return fmt.Errorf("open the downloaded archive: %w (the download may be damaged; try again)", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read the downloaded archive: %w", err)
		}
		if h.Typeflag != tar.TypeReg || !strings.HasPrefix(h.Name, prefix) {
			continue
		}
		dst, err := entryPath(dir, h.Name)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := writeFile(dst, tr, h.FileInfo().Mode().Perm()); err != nil {
			return fmt.Errorf("unpack %s: %w", h.Name, err)
		}
	}
}

// entryPath is where the archive entry name lands in dir; a name that would leave dir is refused.
func entryPath(dir, name string) (string, error) {
	local := filepath.FromSlash(strings.TrimSuffix(name, "/"))
	if !filepath.IsLocal(local) {
		return "", fmt.Errorf("the downloaded archive holds %q, which would land outside %s; refused", name, dir)
	}
	return filepath.Join(dir, local), nil
}

// writeFile writes r to a new file at path with perm (at least owner read-write).
func writeFile(path string, r io.Reader, perm fs.FileMode) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
