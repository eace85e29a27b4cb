package booking

// Event types of the booking lab's log. The page sends the first five; the server logs the
// rest itself.
const (
	EventDialogOpened  = "dialog_opened"
	EventFieldChanged  = "field_changed"  // data: field (title|room), value
	EventNoticeShown   = "notice_shown"   // data: text
	EventAlertShown    = "alert_shown"    // data: text
	EventDialogClosed  = "dialog_closed"  //
	EventSaveRequested = "save_requested" // data: title, room
	EventCommitted     = "committed"      // data: id, title, room
	EventSaveCompleted = "save_completed" //
	EventRefused       = "refused"        // data: reason
	EventCancelled     = "cancelled"      //
)

// eventKeys lists, for every known event type, exactly the data keys it carries.
var eventKeys = map[string][]string{
	EventDialogOpened:  nil,
	EventFieldChanged:  {"field", "value"},
	EventNoticeShown:   {"text"},
	EventAlertShown:    {"text"},
	EventDialogClosed:  nil,
	EventSaveRequested: {"title", "room"},
	EventCommitted:     {"id", "title", "room"},
	EventSaveCompleted: nil,
	EventRefused:       {"reason"},
	EventCancelled:     nil,
}

// pageEvents are the types the page may post to /api/events; the others only the server logs.
var pageEvents = map[string]bool{
	EventDialogOpened: true,
	EventFieldChanged: true,
	EventNoticeShown:  true,
	EventAlertShown:   true,
	EventDialogClosed: true,
}

// Form fields a field_changed event can name.
const (
	FieldTitle = "title"
	FieldRoom  = "room"
)
