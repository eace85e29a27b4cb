package agent

import "fmt"

// MaxNotices bounds the notices a task names by where they are shown.
const MaxNotices = 16

// NoticePlace says where a task's named notice is shown: the element a test id or a CSS
// selector finds (a toast, a snackbar, a flash message with no live region). ID is the
// signal's id, which Sample.Notices reports it under. Exactly one of TestID and CSS is set.
type NoticePlace struct {
	ID     string `json:"id"`
	TestID string `json:"test_id,omitempty"`
	CSS    string `json:"css,omitempty"`
}

// String names the place as a person reads it: `#toast`, or `test id "saved"`.
func (p NoticePlace) String() string {
	if p.TestID != "" {
		return fmt.Sprintf("test id %q", p.TestID)
	}
	return p.CSS
}
