package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/scratch"
)

// defaultNpmRegistry serves the playwright-core package the driver is made of;
// PLAYWRIGHT_GO_NPM_REGISTRY replaces it, as it does for playwright-go's own installer.
const defaultNpmRegistry = "https://registry.npmjs.org"

// InstallDriver installs the Playwright driver when it is missing: it downloads the
// playwright-core package from the npm registry, reporting bytes as "driver", stages it in a
// held folder beside the driver's and moves it into place only once whole, so a cancelled or
// failed download leaves nothing behind. playwright-go then checks it and applies its patch.
// It needs Node.js (see useSystemNode); it downloads no browser.
func InstallDriver(ctx context.Context, progress ProgressFunc) error {
	if err := useSystemNode(); err != nil {
		return err
	}
	if CheckDriver() != nil {
		if err := downloadDriver(ctx, progress); err != nil {
			return fmt.Errorf("install the Playwright driver: %w", err)
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
	parent := filepath.Dir(dir)
	if _, err := scratch.Sweep(parent, stagingPrefix); err != nil {
		return fmt.Errorf("clear earlier downloads from %s: %w", parent, err)
	}
	stage, err := scratch.Dir(parent, stagingPrefix)
	if err != nil {
		return fmt.Errorf("make a folder for the download in %s: %w", parent, err)
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
	// What is there has no cli.js (CheckDriver said so): an empty or broken driver folder.
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("replace the incomplete driver in %s: %w", dir, err)
	}
	if err := os.Rename(unpacked, dir); err != nil {
		return fmt.Errorf("move the driver into %s: %w", dir, err)
	}
	return nil
}
