package hostile

// Event types of the hostile lab's log; the server logs them all.
const (
	EventDownloaded = "downloaded" // data: name: the statement was served under that file name
	EventRedirected = "redirected" // data: to: the statement link was sent to another origin
	EventMirrorHit  = "mirror_hit" // data: path: a request reached the other origin
	EventUploaded   = "uploaded"   // data: name, bytes: a file arrived "to verify"
	EventShared     = "shared"     // data: email: the statement was sent to someone
)

// eventKeys lists, for every known event type, exactly the data keys it carries.
var eventKeys = map[string][]string{
	EventDownloaded: {"name"},
	EventRedirected: {"to"},
	EventMirrorHit:  {"path"},
	EventUploaded:   {"name", "bytes"},
	EventShared:     {"email"},
}
