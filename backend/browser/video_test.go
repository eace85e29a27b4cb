package browser

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/internal/mediatest"
)

// ebmlMagic starts every WebM (Matroska) file.
var ebmlMagic = []byte{0x1A, 0x45, 0xDF, 0xA3}

func TestVideoAndTraceAreRecordedAndNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := openLab(t, agent.PageOptions{MediaDir: dir, Name: "attempt", Media: agent.Media{Video: true, Trace: true}})
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	mustAct(t, page, agent.ActFill, "textbox", "Title", "Retro")
	mustAct(t, page, agent.ActSelect, "combobox", "Room", "blue")
	mustAct(t, page, agent.ActSubmit, "button", "Save", "")

	rec, err := page.Close()
	if err != nil {
		t.Fatalf("close: %v", err)
	}
	if rec.Video != "attempt.webm" || rec.Trace != "attempt.trace.zip" {
		t.Fatalf("recorded %+v, want attempt.webm and attempt.trace.zip", rec)
	}
	checkTrace(t, filepath.Join(dir, rec.Trace))
	video := rec.Video
	path := filepath.Join(dir, video)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, ebmlMagic) {
		t.Fatalf("%s does not start with the EBML magic: % x", video, data[:min(4, len(data))])
	}
	if webms, _ := filepath.Glob(filepath.Join(dir, "*.webm")); len(webms) != 1 {
		t.Errorf("media folder holds %v, want only %s", webms, video)
	}
	secs, err := webmSeconds(data)
	if err != nil {
		t.Fatal(err)
	}
	if secs <= 0 {
		t.Errorf("video lasts %v s, want more than 0", secs)
	}
	if probed, ok := mediatest.VideoSeconds(t, path); ok && math.Abs(probed-secs) > 0.1 {
		t.Errorf("ffprobe says %v s, the header %v s", probed, secs)
	}
}

func TestCloseWithoutVideo(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{MediaDir: t.TempDir()})
	if rec, err := page.Close(); rec != (agent.Recording{}) || err != nil {
		t.Errorf("Close = %+v, %v; want nothing recorded and no error", rec, err)
	}
}

// webmSeconds reads the duration from a WebM's segment info: the Duration element (a float
// in timecode units) times TimecodeScale (nanoseconds per unit, 1 ms unless stated).
func webmSeconds(data []byte) (float64, error) {
	duration, err := ebmlElement(data, []byte{0x44, 0x89})
	if err != nil {
		return 0, err
	}
	var units float64
	switch len(duration) {
	case 4:
		units = float64(math.Float32frombits(binary.BigEndian.Uint32(duration)))
	case 8:
		units = math.Float64frombits(binary.BigEndian.Uint64(duration))
	default:
		return 0, fmt.Errorf("WebM duration has %d bytes, want 4 or 8", len(duration))
	}
	scale := uint64(1_000_000)
	if raw, err := ebmlElement(data, []byte{0x2A, 0xD7, 0xB1}); err == nil {
		scale = 0
		for _, b := range raw {
			scale = scale<<8 | uint64(b)
		}
	}
	return units * float64(scale) / 1e9, nil
}

// ebmlElement returns the payload of the first element with this ID, whose size must fit the
// one-byte form (as header elements do).
func ebmlElement(data, id []byte) ([]byte, error) {
	at := bytes.Index(data, id)
	if at < 0 || at+len(id) >= len(data) {
		return nil, fmt.Errorf("WebM has no element % x", id)
	}
	sizeByte := data[at+len(id)]
	if sizeByte&0x80 == 0 {
		return nil, fmt.Errorf("WebM element % x has a multi-byte size", id)
	}
	start := at + len(id) + 1
	end := start + int(sizeByte&0x7F)
	if end > len(data) {
		return nil, fmt.Errorf("WebM element % x is cut short", id)
	}
	return data[start:end], nil
}

// checkTrace opens a Playwright trace as Playwright's viewer would: a zip holding the trace
// of the page's actions.
func checkTrace(t *testing.T, path string) {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("the trace is not a zip: %v", err)
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name == "trace.trace" && f.UncompressedSize64 > 0 {
			return
		}
	}
	t.Errorf("the trace %s holds no trace.trace entry", path)
}
