package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// stagingPrefix names the held folders a download is staged in, inside Playwright's browser
// folder; one left by a killed process is swept by the next download.
const stagingPrefix = ".observatory-download-"

// DownloadChromium downloads Playwright's own Chromium for the installed driver into
// Playwright's browser folder, in the layout Playwright's installer leaves (chromium-<revision>
// with its INSTALLATION_COMPLETE marker), reporting bytes and then files to progress. It
// returns the browser's executable. The download is staged in a held folder beside it and
// moved into place only once whole: when ctx ends or anything fails, nothing is left
// behind. An already installed Chromium is not downloaded again.
func DownloadChromium(ctx context.Context, progress ProgressFunc) (string, error) {
	pc, err := LocatePlaywrightChromium()
	if err != nil {
		return "", err
	}
	if pc.Installed() {
		return pc.Executable, nil
	}
	stage, err := stageBeside(pc.Dir)
	if err != nil {
		return "", err
	}
	defer stage.Remove() // after a success it holds only the emptied zip folder
	if err := stageChromium(ctx, pc, stage.Path, progress); err != nil {
		return "", fmt.Errorf("download Playwright's Chromium %s: %w", pc.Version, err)
	}
	unpacked := filepath.Join(stage.Path, "browser")
	exe, err := filepath.Rel(pc.Dir, pc.Executable)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(unpacked, exe)); err != nil {
		return "", fmt.Errorf("the archive from %s has no %s: the download host serves something else than Playwright's Chromium", pc.URL, exe)
	}
	if err := os.WriteFile(filepath.Join(unpacked, installedMarker), nil, 0o644); err != nil {
		return "", fmt.Errorf("mark Chromium installed: %w", err)
	}
	// A folder left without its marker (Playwright's own interrupted install) is replaced.
	if err := os.RemoveAll(pc.Dir); err != nil {
		return "", fmt.Errorf("replace the incomplete %s: %w", pc.Dir, err)
	}
	if err := os.Rename(unpacked, pc.Dir); err != nil {
		return "", fmt.Errorf("move Chromium into %s: %w", pc.Dir, err)
	}
	return pc.Executable, nil
}

// stageChromium downloads pc's zip into stage and unpacks it into stage/browser.
func stageChromium(ctx context.Context, pc PlaywrightChromium, stage string, progress ProgressFunc) error {
	zipPath := filepath.Join(stage, "chromium.zip")
	f, err := os.Create(zipPath)
	if err != nil {
		return err
	}
	d := download{URL: pc.URL, Phase: "chromium", MirrorEnv: "PLAYWRIGHT_DOWNLOAD_HOST"}
	err = fetch(ctx, d, f, progress)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := unpackZip(ctx, zipPath, filepath.Join(stage, "browser"), progress); err != nil {
		return err
	}
	return os.Remove(zipPath)
}
