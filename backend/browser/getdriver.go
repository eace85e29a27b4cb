package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/scratch"
)

// Where the driver's parts come from; PLAYWRIGHT_GO_NPM_REGISTRY and NODE_MIRROR replace
// them, as they do for playwright-go's own installer.
const (
	// defaultNpmRegistry serves the playwright-core package the driver is made of.
	defaultNpmRegistry = "https://registry.npmjs.org"
	// defaultNodeMirror serves Node.js, for systems without one.
	defaultNodeMirror = "https://nodejs.org/dist"
)

// nodeVersion is the Node.js release downloaded to run the driver where the system has no
// node: the one playwright-go pins for this driver.
const nodeVersion = "24.21.0"

// InstallDriver installs the Playwright driver when it is missing: it downloads the
// playwright-core package from the npm registry, reporting bytes as "driver", and, where the
// system has no node, Node.js from nodejs.org beside it, reporting bytes as "node". Each is
// staged in a held folder beside the driver's and moved into place only once whole, so a
// cancelled or failed download leaves nothing behind. playwright-go then checks the driver
// and applies its patch. It downloads no browser.
func InstallDriver(ctx context.Context, progress ProgressFunc) error {
	if err := UseSystemNode(); err != nil {
		return err
	}
	if checkDriverCLI() != nil {
		if err := downloadDriver(ctx, progress); err != nil {
			return fmt.Errorf("install the Playwright driver: %w", err)
		}
	}
	if CheckDriver() != nil {
		if err := downloadNode(ctx, progress); err != nil {
			return fmt.Errorf("install Node.js for the Playwright driver (or install Node.js yourself): %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := playwright.Install(driverOnly()); err != nil {
		return fmt.Errorf("check the Playwright driver: %w", err)
	}
	return nil
}

// downloadDriver downloads and unpacks playwright-core into the driver's folder.
func downloadDriver(ctx context.Context, progress ProgressFunc) error {
	dir, err := driverDir()
	if err != nil {
		return err
	}
	driver, err := playwright.NewDriver(driverOnly())
	if err != nil {
		return err
	}
	registry := strings.TrimRight(os.Getenv("PLAYWRIGHT_GO_NPM_REGISTRY"), "/")
	if registry == "" {
		registry = defaultNpmRegistry
	}
	d := download{
		URL:       fmt.Sprintf("%s/playwright-core/-/playwright-core-%s.tgz", registry, driver.Version),
		Phase:     "driver",
		MirrorEnv: "PLAYWRIGHT_GO_NPM_REGISTRY",
	}
	stage, err := stageBeside(dir)
	if err != nil {
		return err
	}
	defer stage.Remove()
	tgz, err := os.Create(filepath.Join(stage.Path, "driver.tgz"))
	if err != nil {
		return err
	}
	defer tgz.Close()
	if err := fetch(ctx, d, tgz, progress); err != nil {
		return err
	}
	if _, err := tgz.Seek(0, 0); err != nil {
		return err
	}
	unpacked := filepath.Join(stage.Path, "driver")
	if err := unpackTarGz(tgz, "package/", unpacked); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(unpacked, "package", "cli.js")); err != nil {
		return fmt.Errorf("the package from %s has no package/cli.js: the registry serves something else than playwright-core", d.URL)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// What is there has no cli.js (checkDriverCLI said so): an empty or broken driver folder.
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("replace the incomplete driver in %s: %w", dir, err)
	}
	if err := os.Rename(unpacked, dir); err != nil {
		return fmt.Errorf("move the driver into %s: %w", dir, err)
	}
	return nil
}

// nodeBuilds name Node.js's release archive for each GOOS/GOARCH.
var nodeBuilds = map[string]string{
	"linux/amd64":   "linux-x64",
	"linux/arm64":   "linux-arm64",
	"darwin/amd64":  "darwin-x64",
	"darwin/arm64":  "darwin-arm64",
	"windows/amd64": "win-x64",
	"windows/arm64": "win-arm64",
}

// downloadNode downloads Node.js from the mirror and puts its executable beside the driver,
// where playwright-go runs it.
func downloadNode(ctx context.Context, progress ProgressFunc) error {
	suffix, ok := nodeBuilds[runtime.GOOS+"/"+runtime.GOARCH]
	if !ok {
		return fmt.Errorf("Node.js has no build for %s/%s: install Node.js and put node on PATH", runtime.GOOS, runtime.GOARCH)
	}
	dst, err := bundledNode()
	if err != nil {
		return err
	}
	mirror := strings.TrimRight(os.Getenv("NODE_MIRROR"), "/")
	if mirror == "" {
		mirror = defaultNodeMirror
	}
	top, ext, inside := "node-v"+nodeVersion+"-"+suffix, ".tar.gz", "bin/node"
	if runtime.GOOS == "windows" {
		ext, inside = ".zip", "node.exe"
	}
	d := download{URL: fmt.Sprintf("%s/v%s/%s%s", mirror, nodeVersion, top, ext), Phase: "node", MirrorEnv: "NODE_MIRROR"}
	stage, err := stageBeside(filepath.Dir(dst))
	if err != nil {
		return err
	}
	defer stage.Remove()
	archive := filepath.Join(stage.Path, "node"+ext)
	f, err := os.Create(archive)
	if err != nil {
		return err
	}
	err = fetch(ctx, d, f, progress)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	unpacked := filepath.Join(stage.Path, "node")
	if ext == ".zip" {
		err = unpackZip(ctx, archive, unpacked, progress)
	} else {
		err = unpackFile(archive, unpacked, top+"/"+inside)
	}
	if err != nil {
		return err
	}
	node := filepath.Join(unpacked, filepath.FromSlash(top+"/"+inside))
	if _, err := os.Stat(node); err != nil {
		return fmt.Errorf("the archive from %s has no %s/%s: the mirror serves something else than Node.js", d.URL, top, inside)
	}
	return os.Rename(node, dst)
}

// unpackFile unpacks the regular files under prefix of the gzipped tar at path into dir.
func unpackFile(path, dir, prefix string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unpackTarGz(f, prefix, dir)
}

// stageBeside holds a new folder to stage a download in, beside dir, after sweeping those
// that processes killed mid-download left there.
func stageBeside(dir string) (*scratch.Held, error) {
	parent := filepath.Dir(dir)
	if _, err := scratch.Sweep(parent, stagingPrefix); err != nil {
		return nil, fmt.Errorf("clear earlier downloads from %s: %w", parent, err)
	}
	stage, err := scratch.Dir(parent, stagingPrefix)
	if err != nil {
		return nil, fmt.Errorf("make a folder for the download in %s: %w", parent, err)
	}
	return stage, nil
}
