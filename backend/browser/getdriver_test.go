package browser

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// playwrightCorePackage packs the installed driver's package/ folder as the npm registry
// serves playwright-core: a gzipped tar with everything under package/.
func playwrightCorePackage(t *testing.T) []byte {
	t.Helper()
	dir, err := driverDir()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	err = filepath.WalkDir(filepath.Join(dir, "package"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: int64(info.Mode().Perm()), Size: info.Size(), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = gz.Close()
	}
	if err != nil {
		t.Fatalf("pack the driver: %v", err)
	}
	return buf.Bytes()
}

// TestInstallDriverFromRegistry installs the driver into an empty folder from an npm registry
// on 127.0.0.1 (PLAYWRIGHT_GO_NPM_REGISTRY), with progress, and launches Chromium through it.
func TestInstallDriverFromRegistry(t *testing.T) {
	needDriver(t)
	body := playwrightCorePackage(t)
	driver, err := playwright.NewDriver(driverOnly())
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("/playwright-core/-/playwright-core-%s.tgz", driver.Version)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != want {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "driver")
	t.Setenv("PLAYWRIGHT_DRIVER_PATH", dir)
	t.Setenv("PLAYWRIGHT_GO_NPM_REGISTRY", srv.URL)
	if err := CheckDriver(); !errors.Is(err, ErrNoDriver) {
		t.Fatalf("before: CheckDriver = %v, want ErrNoDriver", err)
	}

	var log progressLog
	if err := InstallDriver(context.Background(), log.record); err != nil {
		t.Fatalf("InstallDriver: %v", err)
	}
	if got := log.get("driver"); got.Done != int64(len(body)) || got.Total != int64(len(body)) {
		t.Errorf("last progress %+v, want %d of %d bytes", got, len(body), len(body))
	}
	if err := CheckDriver(); err != nil {
		t.Fatalf("after: %v", err)
	}
	if names := leftIn(t, filepath.Dir(dir)); len(names) != 1 {
		t.Errorf("the driver's parent folder holds %q, want the driver alone", names)
	}
	b, err := Launch(context.Background(), Options{Headless: true})
	if err != nil {
		t.Fatalf("launch through the installed driver: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// TestInstallDriverUnreachableRegistry fails fast with what to do, leaving no driver behind.
func TestInstallDriverUnreachableRegistry(t *testing.T) {
	needDriver(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	dir := filepath.Join(t.TempDir(), "driver")
	t.Setenv("PLAYWRIGHT_DRIVER_PATH", dir)
	t.Setenv("PLAYWRIGHT_GO_NPM_REGISTRY", closed.URL)
	err := InstallDriver(context.Background(), func(Progress) {})
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "PLAYWRIGHT_GO_NPM_REGISTRY") {
		t.Errorf("InstallDriver = %v, want ErrUnreachable naming PLAYWRIGHT_GO_NPM_REGISTRY", err)
	}
	if err := CheckDriver(); !errors.Is(err, ErrNoDriver) {
		t.Errorf("after a failed install CheckDriver = %v, want ErrNoDriver", err)
	}
	if names := leftIn(t, filepath.Dir(dir)); len(names) > 1 || (len(names) == 1 && names[0] != "driver") {
		t.Errorf("a failed install left %q", names)
	}
}

// nodeArchive packs the system's node as Node.js's release archive for this system does,
// with the executable at top/bin/node.
func nodeArchive(t *testing.T, top string) []byte {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("no node on PATH to pack as a Node.js release: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		data []byte
	}{{top + "/README.md", []byte("Node.js")}, {top + "/bin/node", data}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestInstallDriverWithoutSystemNode installs the driver on a system with no node on PATH:
// Node.js comes from a mirror on 127.0.0.1 (NODE_MIRROR) beside the driver, with progress,
// and the driver runs on it.
func TestInstallDriverWithoutSystemNode(t *testing.T) {
	needDriver(t)
	suffix, ok := nodeBuilds[runtime.GOOS+"/"+runtime.GOARCH]
	if !ok || runtime.GOOS == "windows" {
		t.Skip("the stand-in Node.js release is a tar.gz of the system's node")
	}
	driver, err := playwright.NewDriver(driverOnly())
	if err != nil {
		t.Fatal(err)
	}
	top := "node-v" + nodeVersion + "-" + suffix
	files := map[string][]byte{
		fmt.Sprintf("/playwright-core/-/playwright-core-%s.tgz", driver.Version): playwrightCorePackage(t),
		fmt.Sprintf("/v%s/%s.tar.gz", nodeVersion, top):                          nodeArchive(t, top),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "driver")
	t.Setenv("PLAYWRIGHT_DRIVER_PATH", dir)
	t.Setenv("PLAYWRIGHT_GO_NPM_REGISTRY", srv.URL)
	t.Setenv("NODE_MIRROR", srv.URL)
	t.Setenv("PLAYWRIGHT_NODEJS_PATH", "")
	t.Setenv("PATH", t.TempDir())

	var log progressLog
	if err := InstallDriver(context.Background(), log.record); err != nil {
		t.Fatalf("InstallDriver: %v", err)
	}
	for _, phase := range []string{"driver", "node"} {
		if got := log.get(phase); got.Done == 0 || got.Done != got.Total {
			t.Errorf("last %s progress %+v, want every byte of the total", phase, got)
		}
	}
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") != "" {
		t.Errorf("PLAYWRIGHT_NODEJS_PATH = %q, want it unset so the driver's own node runs", os.Getenv("PLAYWRIGHT_NODEJS_PATH"))
	}
	if err := CheckDriver(); err != nil {
		t.Errorf("after the install: %v", err)
	}
	if names := leftIn(t, dir); !slices.Contains(names, "node") || !slices.Contains(names, "package") {
		t.Errorf("the driver's folder holds %q, want node and package", names)
	}
	if names := leftIn(t, filepath.Dir(dir)); len(names) != 1 {
		t.Errorf("the driver's parent folder holds %q, want the driver alone", names)
	}
}
