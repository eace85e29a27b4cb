package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Progress reports how far a setup step has come: Done of Total units (bytes while
// downloading, files while unpacking; Total 0 when not known yet).
type Progress struct {
	// Phase names the step: "driver", "node" or "chromium" while downloading, "unpack" while
	// unpacking.
	Phase string `json:"phase"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// ProgressFunc receives progress reports; it must return quickly.
type ProgressFunc func(Progress)

// Download time limits: reaching the host, waiting for its answer, and a transfer that stops
// moving. None bounds a whole download, which may take minutes on a slow line.
var (
	connectTimeout = 10 * time.Second
	answerTimeout  = 30 * time.Second
	stallTimeout   = 30 * time.Second
)

// ErrUnreachable means a download host could not be reached at all.
var ErrUnreachable = errors.New("cannot reach the download host")

// download is one file to fetch.
type download struct {
	// URL is the file; Phase names its progress reports.
	URL, Phase string
	// MirrorEnv names the environment variable that points the download at a mirror.
	MirrorEnv string
}

// fetch downloads d.URL into w, reporting bytes as d.Phase. It fails fast when the host
// cannot be reached (no internet, a firewall, an unknown name) and when the transfer stalls,
// and stops when ctx ends.
func fetch(ctx context.Context, d download, w io.Writer, progress ProgressFunc) error {
	rawURL, phase := d.URL, d.Phase
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return fmt.Errorf("download %s: %w", rawURL, err)
	}
	client := &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: connectTimeout}).DialContext,
		TLSHandshakeTimeout:   connectTimeout,
		ResponseHeaderTimeout: answerTimeout,
	}}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("download %s: %w", rawURL, context.Cause(ctx))
		}
		return unreachable(d, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: the host answered %s; check the address (%s) or try again later", rawURL, resp.Status, d.MirrorEnv)
	}
	total := max(resp.ContentLength, 0)
	progress(Progress{Phase: phase, Total: total})
	// A transfer that moves no byte for stallTimeout is ended.
	stall := time.AfterFunc(stallTimeout, func() {
		cancel(fmt.Errorf("no data from the host for %s", stallTimeout))
	})
	defer stall.Stop()
	var done int64
	buf := make([]byte, 64<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			stall.Reset(stallTimeout)
			if _, err := w.Write(buf[:n]); err != nil {
				return fmt.Errorf("download %s: write: %w", rawURL, err)
			}
			done += int64(n)
			progress(Progress{Phase: phase, Done: done, Total: total})
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("download %s: %w", rawURL, context.Cause(ctx))
			}
			return fmt.Errorf("download %s: the transfer broke after %d bytes: %w", rawURL, done, rerr)
		}
	}
	if total > 0 && done != total {
		return fmt.Errorf("download %s: got %d of %d bytes; try again", rawURL, done, total)
	}
	return nil
}

// unreachable is the error for a host that could not be reached: what to check, and the
// ways around a machine without internet.
func unreachable(d download, err error) error {
	host := d.URL
	if u, perr := url.Parse(d.URL); perr == nil {
		host = u.Host
	}
	return fmt.Errorf("%w %s (%v): this machine seems to have no internet access; connect it, or set %s to a mirror",
		ErrUnreachable, host, errors.Unwrap(err), d.MirrorEnv)
}
