package booking

// Room values the app offers.
const (
	RoomNorth = "north"
	RoomSouth = "south"
)

// DefaultRoom is the room the form selects when the dialog opens.
const DefaultRoom = RoomNorth

// Room is one option of the Room combobox.
type Room struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Rooms are the combobox's options in the order the page shows them.
var Rooms = []Room{{Value: RoomNorth, Label: "North lab"}, {Value: RoomSouth, Label: "South lab"}}

// findRoom looks a room up by its value.
func findRoom(value string) (Room, bool) {
	for _, r := range Rooms {
		if r.Value == value {
			return r, true
		}
	}
	return Room{}, false
}

// roomLabel returns the label the page shows for a room value, or the value itself when the
// room is unknown.
func roomLabel(value string) string {
	if r, ok := findRoom(value); ok {
		return r.Label
	}
	return value
}

// knownRoom reports whether value is one of Rooms.
func knownRoom(value string) bool {
	_, ok := findRoom(value)
	return ok
}
