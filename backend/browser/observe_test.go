package browser

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

func TestObserveFollowsTheLab(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})

	before := mustObserve(t, page)
	if !strings.HasPrefix(before.URL, "http://127.0.0.1:") {
		t.Errorf("URL = %q, want the test server", before.URL)
	}
	if before.DialogOpen || before.FormPresent || len(before.Fields) != 0 {
		t.Errorf("closed dialog observed as open=%v form=%v fields=%v", before.DialogOpen, before.FormPresent, before.Fields)
	}
	if before.Alert != "Rooms close at 18:00" || before.Notice != "" {
		t.Errorf("alert, notice = %q, %q", before.Alert, before.Notice)
	}
	if want := [][]string{{"Standup", "blue"}}; !reflect.DeepEqual(before.Rows, want) {
		t.Errorf("rows = %v, want %v", before.Rows, want)
	}
	for _, p := range []agent.RoleName{
		{Role: "heading", Name: "Bookings"}, {Role: "button", Name: "New booking"},
		{Role: "button", Name: "Help"}, {Role: "table"}, {Role: "columnheader", Name: "Title"},
		{Role: "cell", Name: "Standup"}, {Role: "alert"}, {Role: "status"},
	} {
		if !slices.Contains(before.Pairs, p) {
			t.Errorf("pairs lack %+v: %v", p, before.Pairs)
		}
	}
	if slices.Contains(before.Pairs, agent.RoleName{Role: "button", Name: "Save"}) {
		t.Errorf("pairs include the hidden dialog's Save button: %v", before.Pairs)
	}

	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	opened := mustObserve(t, page)
	wantEmpty := []agent.Field{
		{Role: "textbox", Name: "Title", Invalid: true},
		{Role: "combobox", Name: "Room", Invalid: true},
		{Role: "checkbox", Name: "Projector", Value: "false"},
		{Role: "checkbox", Name: "Catering", Value: "true"},
	}
	if !opened.DialogOpen || !opened.FormPresent || opened.FormValid {
		t.Errorf("opened dialog: open=%v form=%v valid=%v", opened.DialogOpen, opened.FormPresent, opened.FormValid)
	}
	if !reflect.DeepEqual(opened.Fields, wantEmpty) {
		t.Errorf("fields = %+v, want %+v", opened.Fields, wantEmpty)
	}
	if !slices.Contains(opened.Pairs, agent.RoleName{Role: "dialog", Name: "Book a room"}) {
		t.Errorf("pairs lack the dialog: %v", opened.Pairs)
	}
	if slices.Contains(opened.Pairs, agent.RoleName{Role: "button", Name: "Decoration"}) {
		t.Errorf("pairs include an aria-hidden button: %v", opened.Pairs)
	}

	mustAct(t, page, agent.ActFill, "textbox", "Title", "Retro")
	mustAct(t, page, agent.ActSelect, "combobox", "Room", "red")
	mustAct(t, page, agent.ActClick, "checkbox", "Projector", "")
	filled := mustObserve(t, page)
	wantFilled := []agent.Field{
		{Role: "textbox", Name: "Title", Value: "Retro"},
		{Role: "combobox", Name: "Room", Value: "red"},
		{Role: "checkbox", Name: "Projector", Value: "true"},
		{Role: "checkbox", Name: "Catering", Value: "true"},
	}
	if !reflect.DeepEqual(filled.Fields, wantFilled) || !filled.FormValid {
		t.Errorf("filled fields = %+v valid=%v, want %+v valid", filled.Fields, filled.FormValid, wantFilled)
	}

	mustAct(t, page, agent.ActSubmit, "button", "Save", "")
	saved := mustObserve(t, page)
	if saved.DialogOpen || saved.Notice != "Saved Retro" {
		t.Errorf("after save: open=%v notice=%q", saved.DialogOpen, saved.Notice)
	}
	if want := [][]string{{"Standup", "blue"}, {"Retro", "red"}}; !reflect.DeepEqual(saved.Rows, want) {
		t.Errorf("rows = %v, want %v", saved.Rows, want)
	}
}

// Every control Observe names must be the one Resolve finds by that name, or the executor
// would plan against names it cannot act on.
func TestObservedFieldNamesResolve(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	s := mustObserve(t, page)
	if len(s.Fields) == 0 {
		t.Fatal("no fields observed in the open dialog")
	}
	for _, f := range s.Fields {
		if err := page.Resolve(context.Background(), agent.Target{Role: f.Role, Name: f.Name}); err != nil {
			t.Errorf("observed %s %q does not resolve: %v", f.Role, f.Name, err)
		}
	}
}

func TestScreenshotsStoreEachFrameOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := openLab(t, agent.PageOptions{MediaDir: dir, Media: agent.Media{Screenshots: true}})

	first := mustObserve(t, page)
	again := mustObserve(t, page)
	if first.Screenshot == "" || first.Screenshot != again.Screenshot {
		t.Fatalf("unchanged page gave screenshots %q and %q, want one name", first.Screenshot, again.Screenshot)
	}
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	changed := mustObserve(t, page)
	if changed.Screenshot == first.Screenshot {
		t.Errorf("opening the dialog kept screenshot %q", first.Screenshot)
	}

	stored, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 2 {
		t.Errorf("stored %v, want 2 frames", stored)
	}
	img, err := os.ReadFile(filepath.Join(dir, first.Screenshot))
	if err != nil {
		t.Fatal(err)
	}
	if len(img) < 3 || img[0] != 0xFF || img[1] != 0xD8 || img[2] != 0xFF {
		t.Errorf("%s is not a JPEG", first.Screenshot)
	}
}

func TestObserveWithoutScreenshotsStoresNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := openLab(t, agent.PageOptions{MediaDir: dir})
	if s := mustObserve(t, page); s.Screenshot != "" {
		t.Errorf("screenshot %q taken with screenshots off", s.Screenshot)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("media folder holds %d files, want none", len(entries))
	}
}
