package agent

import (
	"context"
	"time"
)

// LiveFrame is one picture of a running page, for whoever watches the attempt live.
type LiveFrame struct {
	// JPEG is the image, downscaled.
	JPEG []byte `json:"jpeg"`
	// At is when it reached this process, on this machine's clock.
	At time.Time `json:"at"`
}

// Streamer is a Page that can show what it displays while an attempt runs, as a stream of
// frames: the browser's own screencast where it has one. Watching is no part of the attempt:
// frames a slow watcher cannot take are dropped, never queued.
type Streamer interface {
	// Stream sends frames to send, one per interval (while the page paints nothing new, the
	// newest again), never touching the page's layout, emulation or timing, until ctx ends
	// or the page closes or
	// dies. It returns nil then, or at once an error saying why this page cannot be
	// streamed (a browser without a DevTools session). send is called from one goroutine
	// and must not block.
	Stream(ctx context.Context, interval time.Duration, send func(LiveFrame)) error
}
