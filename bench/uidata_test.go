package bench

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/store"
)

// The data folder the UI is measured on: a run whose attempt "long" has bigSteps steps and
// whose attempt "short" has shortSteps, every step with a screenshot before and after and
// samples of a realistic size, and historyRuns other runs.
const (
	longSlug   = "long"
	shortSlug  = "short"
	shortSteps = 100
	// shots is how many distinct screenshots the steps share, as a run's identical frames are
	// stored once.
	shots = 20
)

// generateStore writes the long run and the history into a fresh store in dir, as imports,
// with the screenshots in the long run's media folder, and returns the long run's id.
func generateStore(b *testing.B, dir string) string {
	b.Helper()
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	for k := range historyRuns {
		run := agent.Run{ID: fmt.Sprintf("20250101-%06d-hist", k), Task: "booking", Created: now.Add(-time.Duration(k) * time.Minute), Source: fmt.Sprintf("history-%d.json", k),
			Attempts: []agent.Attempt{{Slug: "saves-normally", Title: "Saves normally", Terminal: agent.Failed, Reason: "generated", Started: now}}}
		if err := st.SaveImported(run); err != nil {
			b.Fatal(err)
		}
	}
	id := "20260101-000000-long"
	writeShots(b, filepath.Join(app.MediaRoot(dir), id))
	run := agent.Run{ID: id, Task: "booking", Created: now, Source: "long.json",
		Attempts: []agent.Attempt{generatedAttempt(longSlug, bigSteps, now), generatedAttempt(shortSlug, shortSteps, now)}}
	if err := st.SaveImported(run); err != nil {
		b.Fatal(err)
	}
	return id
}

// generatedAttempt is an attempt of n steps, each with samples the size a real page gives
// (a dozen role/name pairs, a form, some visible text) and its screenshots.
func generatedAttempt(slug string, n int, now time.Time) agent.Attempt {
	a := agent.Attempt{Slug: slug, Title: "A generated attempt of " + fmt.Sprint(n) + " steps", Terminal: agent.Failed, Reason: "generated", Started: now}
	text := strings.Repeat("Lab reservations. North lab, South lab, Spectral scan at 10:00. ", 5)
	for k := range n {
		sample := func(at int64, shot string) agent.Sample {
			s := agent.Sample{AtMS: at, URL: "http://127.0.0.1/", Title: "Lab reservations", Text: text, Screenshot: shot,
				Fields: []agent.Field{{Role: "textbox", Name: "Reservation title", Value: fmt.Sprint("Scan ", k)}, {Role: "combobox", Name: "Room", Value: "north"}},
				Rows:   [][]string{{"Spectral scan", "north", "saved"}}}
			for p := range 12 {
				s.Pairs = append(s.Pairs, agent.RoleName{Role: "button", Name: fmt.Sprint("Control ", p)})
			}
			return s
		}
		a.Steps = append(a.Steps, agent.Step{Index: k, StartMS: int64(k) * 50, DurationMS: 40,
			Before:   sample(int64(k)*50, fmt.Sprintf("shots/%d.jpg", k%shots)),
			After:    sample(int64(k)*50+40, fmt.Sprintf("shots/%d.jpg", (k+1)%shots)),
			Action:   agent.Action{ID: fmt.Sprint("s", k), Description: fmt.Sprintf("Generated action %d", k+1), Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Next"}},
			Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "generated"}})
	}
	return a
}

// writeShots writes the screenshots the generated steps name into the run's media folder:
// JPEGs of a 1000×700 page, as the recorder takes them.
func writeShots(b *testing.B, media string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Join(media, "shots"), 0o755); err != nil {
		b.Fatal(err)
	}
	for k := range shots {
		img := image.NewRGBA(image.Rect(0, 0, 1000, 700))
		for y := range 700 {
			for x := range 1000 {
				img.Set(x, y, color.RGBA{uint8(x*k + y), uint8(y + 40*k), uint8(x ^ y), 255})
			}
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 70}); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(media, "shots", fmt.Sprintf("%d.jpg", k)), buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
