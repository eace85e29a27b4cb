package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mxschmitt/playwright-go"
)

// encodeMin and encodePerSecond bound an encoding: a video of d takes at most encodeMin plus
// encodePerSecond for each of its seconds, so a wedged ffmpeg cannot hold the run's end.
const (
	encodeMin       = 30 * time.Second
	encodePerSecond = 2 * time.Second
)

// encodeWebM encodes, with ffmpeg, the frames in spool, each shown as long as frames says,
// into a VP8 WebM of size at path, at a variable frame rate: a frame that shows for a second is encoded once,
// not 25 times. The file appears at path only once it is whole.
func encodeWebM(ctx context.Context, ffmpeg, spool string, frames []shown, size playwright.Size, path string) error {
	list := filepath.Join(spool, "frames.ffconcat")
	var total time.Duration
	var b strings.Builder
	b.WriteString("ffconcat version 1.0\n")
	for _, f := range frames {
		fmt.Fprintf(&b, "file %s\nduration %.3f\n", f.file, f.lasts.Seconds())
		total += f.lasts
	}
	// ffmpeg's concat demuxer drops the last entry's duration unless the file comes again.
	fmt.Fprintf(&b, "file %s\n", frames[len(frames)-1].file)
	if err := os.WriteFile(list, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("write the video's frame list: %w", err)
	}
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	ctx, cancel := context.WithTimeout(ctx, encodeMin+time.Duration(total.Seconds()*float64(encodePerSecond)))
	defer cancel()
	w, h := size.Width&^1, size.Height&^1
	cmd := exec.CommandContext(ctx, ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
		"-f", "concat", "-safe", "0", "-i", list,
		"-fps_mode", "vfr", "-an",
		"-vf", fmt.Sprintf("scale=%d:%d:force_original_aspect_ratio=decrease,pad=%d:%d:0:0:gray,format=yuv420p", w, h, w, h),
		"-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-threads", "1",
		"-qmin", "0", "-qmax", "50", "-crf", "8", "-b:v", "1M",
		"-f", "webm", "-y", tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Start()
	if err == nil {
		yieldCPU(cmd.Process.Pid) // the next attempt may be running: it goes first
		err = cmd.Wait()
	}
	if err != nil {
		_ = os.Remove(tmp)
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			line, _, _ := strings.Cut(msg, "\n")
			err = fmt.Errorf("%w: %s", err, line)
		}
		return fmt.Errorf("encode the video with %s: %w", ffmpeg, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("name the recorded video: %w", err)
	}
	return nil
}

// errNoFFmpeg means no ffmpeg was found to encode videos with.
var errNoFFmpeg = errors.New("recording video needs ffmpeg: none is where Playwright installs it, nor on the PATH (scripts/setup.sh installs Debian's)")

// ffmpegPath is the ffmpeg that encodes videos: the one Playwright installs beside its
// browsers (on Linux, Debian's linked there by LinkFFmpeg), else the first on the PATH.
func ffmpegPath() (string, error) {
	if path, err := playwrightFFmpeg(); err == nil {
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
	}
	if path, err := exec.LookPath("ffmpeg"); err == nil {
		return path, nil
	}
	return "", errNoFFmpeg
}

// playwrightFFmpeg is where Playwright keeps its ffmpeg on this system, whether or not it is
// there.
func playwrightFFmpeg() (string, error) {
	entry, err := registryBrowser("ffmpeg")
	if err != nil {
		return "", err
	}
	dir, err := browsersDir()
	if err != nil {
		return "", err
	}
	name := "ffmpeg-linux"
	switch runtime.GOOS {
	case "windows":
		name = "ffmpeg-win64.exe"
	case "darwin":
		name = "ffmpeg-mac"
	}
	return filepath.Join(dir, "ffmpeg-"+entry.Revision, name), nil
}
