package app

import (
	"sync"
	"time"

	"observatory/backend/runfile"
)

// replayCacheSize bounds how many attempts' replays are kept.
const replayCacheSize = 32

// replayKey names one attempt of one stored run: the run's id and when it came into the
// history, so a run deleted and imported again under the same id is another.
type replayKey struct {
	run   string
	added time.Time
	slug  string
}

// replayCache keeps the replays of finished runs' attempts, which cannot change: replaying
// reads a whole attempt and judges it again, seconds for a long one, so opening a run again
// need not. The attempt used longest ago goes first. It is safe for concurrent use.
type replayCache struct {
	mu   sync.Mutex
	kept map[replayKey]runfile.AttemptReplay
	// order lists the keys, the one used longest ago first.
	order []replayKey
}

func (c *replayCache) get(k replayKey) (runfile.AttemptReplay, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.kept[k]
	if ok {
		c.touch(k)
	}
	return r, ok
}

func (c *replayCache) put(k replayKey, r runfile.AttemptReplay) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = map[replayKey]runfile.AttemptReplay{}
	}
	if _, ok := c.kept[k]; !ok && len(c.kept) >= replayCacheSize {
		delete(c.kept, c.order[0])
		c.order = c.order[1:]
	}
	c.kept[k] = r
	c.touch(k)
}

// touch moves k to the end of the order.
func (c *replayCache) touch(k replayKey) {
	for i, o := range c.order {
		if o == k {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.order = append(c.order, k)
}
