package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportDialogWritesEveryFormatWhereTheUserChose saves each format through the desktop's
// dialog, and checks that a cancel writes nothing and that outside the desktop the dialog is
// refused before anything is read.
func TestExportDialogWritesEveryFormatWhereTheUserChose(t *testing.T) {
	s, id := storedRun(t)
	dir := t.TempDir()
	for _, c := range []struct {
		format ExportFormat
		slug   string
		starts string
	}{
		{FormatRun, "", "{"},
		{FormatBundle, "", "PK"},
		{FormatReport, "", "<!doctype html>"},
		{FormatHAR, "saves-normally", "{"},
		{FormatLedger, "saves-normally", "step,intent,"},
	} {
		out := filepath.Join(dir, string(c.format))
		s.Files.dialogs = fakeDialogs{save: out}
		if path, err := s.Files.ExportDialog(string(c.format), id, c.slug); err != nil || path != out {
			t.Fatalf("ExportDialog %s = %q, %v", c.format, path, err)
		}
		if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(strings.ToLower(string(b)), strings.ToLower(c.starts)) {
			t.Errorf("%s wrote %.80q, %v; want it to start %q", c.format, b, err, c.starts)
		}
	}
	s.Files.dialogs = fakeDialogs{save: ""}
	if path, err := s.Files.ExportDialog(string(FormatRun), id, ""); path != "" || err != nil {
		t.Errorf("a cancelled dialog: %q, %v", path, err)
	}
	s.Files.dialogs = nil
	if _, err := s.Files.ExportDialog(string(FormatRun), id, ""); err != ErrNoDialogs {
		t.Errorf("outside the desktop: %v, want ErrNoDialogs", err)
	}
	if _, err := s.Files.ExportDialog("pdf", id, ""); err == nil || !strings.Contains(err.Error(), `no export format "pdf"`) {
		t.Errorf("an unknown format: %v", err)
	}
}
