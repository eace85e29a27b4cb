package runfile

import (
	"bytes"
	"strings"
	"testing"
)

// TestRefusedByPageIsAMemberOfItsOwn checks that a decision held because the page refuses
// the action carries why in refused_by_page, apart from its reason, and reads back.
func TestRefusedByPageIsAMemberOfItsOwn(t *testing.T) {
	run := goodRun()
	run.Attempts[0].Steps[1].Decision.RefusedByPage = "id_rsa is outside the uploads folder"
	data := encoded(t, New(run, t0))
	if !strings.Contains(string(data), `"refused_by_page": "id_rsa is outside the uploads folder"`) {
		t.Fatalf("the run file has no refused_by_page member:\n%s", data)
	}
	if strings.Count(string(data), `"refused_by_page"`) != 1 {
		t.Errorf("refused_by_page written where nothing was refused")
	}
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Run.Attempts[0].Steps[1].Decision.RefusedByPage; got != "id_rsa is outside the uploads folder" {
		t.Errorf("read back %q", got)
	}
}
