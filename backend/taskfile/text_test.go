package taskfile_test

import (
	"strings"
	"testing"

	"observatory/backend/taskfile"
)

// TestUTF8TextIsKeptVerbatim checks that the UTF-8 check refuses no real text: an intent in
// another script, and a file that starts with UTF-8's byte-order mark, load as written.
func TestUTF8TextIsKeptVerbatim(t *testing.T) {
	const intent = "Réserver « North lab » — 予約する 🔬"
	for name, prefix := range map[string]string{"plain.yaml": "", "with-bom.yaml": "\ufeff", "plain.json": "", "with-bom.json": "\ufeff"} {
		data := prefix + "schema: observatory.task/v1\nname: t\nintent: " + intent + "\nstart_url: http://127.0.0.1:8080/\nsuccess:\n  - {id: ok, page: {text: Done}}\n"
		if strings.HasSuffix(name, ".json") {
			data = prefix + `{"schema": "observatory.task/v1", "name": "t", "intent": "` + intent + `", "start_url": "http://127.0.0.1:8080/", "success": [{"id": "ok", "page": {"text": "Done"}}]}`
		}
		s, err := taskfile.Parse(name, []byte(data), "", taskfile.Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := s.Task().Intent; got != intent {
			t.Errorf("%s: intent %q, want %q", name, got, intent)
		}
	}
}
