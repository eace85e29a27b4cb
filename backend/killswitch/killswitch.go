// Package killswitch stops every run of a data folder at once, from any process: `observatory
// stop` pulls it, and every process that runs attempts (observatory run, the desktop, serve)
// watches it. It is made of plain files in the data folder, no signals and no sockets, so it
// works the same on Windows:
//
//	<data>/killswitch/pulled          the latest pull: a fresh nonce; a change fires every watcher
//	<data>/killswitch/<token>.watch   a watcher's lock file, held while its process lives
//	<data>/killswitch/<token>.stopped written by a watcher once its runs have stopped: the nonce
//	<data>/killswitch/.tmp-*          a file being written, renamed over one of the above at once;
//	                                  one a process left when it died is swept by the next pull
//
// A watcher remembers the pull it found when it started, so an old pull stops nothing new.
package killswitch

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"observatory/backend/internal/filelock"
)

const (
	folder     = "killswitch"
	pulledName = "pulled"
	watchExt   = ".watch"
	stoppedExt = ".stopped"
	tempPrefix = ".tmp-"
)

// staleTemp is how old a temporary file must be before a sweep removes it: one being
// written lives for a moment, so an older one was left by a process that died writing it.
const staleTemp = time.Minute

// Poll is how often a watcher looks at the switch.
const Poll = 200 * time.Millisecond

// dir is the switch's folder in dataDir.
func dir(dataDir string) string { return filepath.Join(dataDir, folder) }

// pulled is the nonce of the latest pull, "" when the switch was never pulled.
func pulled(dataDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir(dataDir), pulledName))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the kill switch: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// writeAtomically replaces path with text, so a reader sees the old text or the new, never
// a part.
func writeAtomically(path, text string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPrefix+"*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(text)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	// On Windows a reader holding path open makes replacing it fail for a moment: try again.
	for try := 0; ; try++ {
		err = os.Rename(tmp.Name(), path)
		if err == nil || try == renameTries {
			break
		}
		time.Sleep(Poll / 10)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// renameTries is how many times writeAtomically tries again to replace a file being read.
const renameTries = 20

// Watcher watches the kill switch for one process and stops its runs when it is pulled.
type Watcher struct {
	dataDir, token string
	lock           *os.File
	seen           string
	stop           func()
	done           chan struct{}
	cancel         context.CancelFunc
}

// Watch registers this process as one that runs attempts and, until Close, calls stop each
// time the switch is pulled; stop must return once the process's runs have ended, and then
// the puller hears that they have.
func Watch(dataDir string, stop func()) (*Watcher, error) {
	d := dir(dataDir)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return nil, fmt.Errorf("creating the kill switch folder %s: %w (check the data folder's permissions)", d, err)
	}
	seen, err := pulled(dataDir)
	if err != nil {
		return nil, err
	}
	token := rand.Text()
	path := filepath.Join(d, token+watchExt)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("registering with the kill switch: %w", err)
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{dataDir: dataDir, token: token, lock: f, seen: seen, stop: stop, done: make(chan struct{}), cancel: cancel}
	go w.watch(ctx)
	return w, nil
}

func (w *Watcher) watch(ctx context.Context) {
	defer close(w.done)
	t := time.NewTicker(Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		nonce, err := pulled(w.dataDir)
		if err != nil || nonce == w.seen {
			continue
		}
		w.seen = nonce
		w.stop()
		_ = writeAtomically(filepath.Join(dir(w.dataDir), w.token+stoppedExt), nonce)
	}
}

// Close stops watching and unregisters the process.
func (w *Watcher) Close() error {
	w.cancel()
	<-w.done
	os.Remove(filepath.Join(dir(w.dataDir), w.token+stoppedExt))
	return filelock.RemoveLocked(w.lock, filepath.Join(dir(w.dataDir), w.token+watchExt))
}

// Result is what a pull reached: the processes that stopped their runs, the ones that
// exited meanwhile, and the ones still stopping when the wait ended.
type Result struct {
	Stopped, Exited, Waiting int
}

// Pull pulls the switch: every process watching it stops its runs. It waits until each has
// said its runs have stopped, or has exited, or ctx ends; it never waits for a process that
// started after the pull.
func Pull(ctx context.Context, dataDir string) (Result, error) {
	d := dir(dataDir)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return Result{}, fmt.Errorf("creating the kill switch folder %s: %w", d, err)
	}
	watchers, err := live(d)
	if err != nil {
		return Result{}, err
	}
	nonce := rand.Text()
	if err := writeAtomically(filepath.Join(d, pulledName), nonce); err != nil {
		return Result{}, fmt.Errorf("pulling the kill switch in %s: %w (check the data folder's permissions)", d, err)
	}
	t := time.NewTicker(Poll / 2)
	defer t.Stop()
	for {
		var res Result
		for _, token := range watchers {
			said, _ := os.ReadFile(filepath.Join(d, token+stoppedExt))
			held, err := filelock.Held(filepath.Join(d, token+watchExt))
			switch {
			case strings.TrimSpace(string(said)) == nonce:
				res.Stopped++
			case err == nil && !held:
				res.Exited++
			default:
				res.Waiting++
			}
		}
		if res.Waiting == 0 {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return res, fmt.Errorf("%d process(es) were still stopping their runs when the wait ended", res.Waiting)
		case <-t.C:
		}
	}
}

// live lists the tokens of the watchers whose processes are alive; Held deletes the lock
// files of dead ones.
func live(d string) ([]string, error) {
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil, fmt.Errorf("listing the kill switch folder %s: %w", d, err)
	}
	sweepTemps(d, entries)
	var out []string
	for _, e := range entries {
		token, ok := strings.CutSuffix(e.Name(), watchExt)
		if !ok || e.IsDir() {
			continue
		}
		held, err := filelock.Held(filepath.Join(d, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("checking %s: %w (delete it if no Observatory is running)", e.Name(), err)
		}
		if held {
			out = append(out, token)
		} else {
			os.Remove(filepath.Join(d, token+stoppedExt))
		}
	}
	return out, nil
}

// sweepTemps removes, of the folder d's entries, the temporary files older than staleTemp:
// those of processes that died writing the switch.
func sweepTemps(d string, entries []os.DirEntry) {
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(d, e.Name()))
		}
	}
}
