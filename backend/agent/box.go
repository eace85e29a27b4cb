package agent

// Box is where an element was on the page: its bounding box in CSS pixels of the page's
// viewport (as getBoundingClientRect gives it), with the viewport's size, so that a viewer
// can scale it onto a screenshot of that viewport however large it shows the screenshot.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// ViewportWidth and ViewportHeight are the viewport's size in CSS pixels.
	ViewportWidth  float64 `json:"viewport_width"`
	ViewportHeight float64 `json:"viewport_height"`
}
