package canvas

// Event types of the canvas lab's log. The page posts the first two; the server logs the
// rest itself.
const (
	EventBoardClicked = "board_clicked" // data: square: where a click on the canvas landed
	EventModeSwitched = "mode_switched" // data: via (keyboard|pointer): accessible mode came on
	EventMoved        = "moved"         // data: piece, from, to
	EventMoveRefused  = "move_refused"  // data: from, to, reason
)

// eventKeys lists, for every known event type, exactly the data keys it carries.
var eventKeys = map[string][]string{
	EventBoardClicked: {"square"},
	EventModeSwitched: {"via"},
	EventMoved:        {"piece", "from", "to"},
	EventMoveRefused:  {"from", "to", "reason"},
}

// pageEvents are the types the page may post to /api/events; the others only the server logs.
var pageEvents = map[string]bool{EventBoardClicked: true, EventModeSwitched: true}

// How the accessible-mode toggle was pressed, as the page tells from the click event (a
// keyboard activation has no pointer position).
const (
	ViaKeyboard = "keyboard"
	ViaPointer  = "pointer"
)
