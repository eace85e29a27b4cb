package agent

// Size is a width and a height in pixels: CSS pixels for a viewport, image pixels for a
// screenshot. An attempt records the viewport its page was opened at, and each sample the
// viewport it was read at and its screenshot's size, so that a viewer can tell a capture taken
// while the page was laid out at another size (a watcher that resized it) from a true one.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}
