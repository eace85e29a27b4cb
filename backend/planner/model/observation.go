package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"observatory/backend/agent"
)

// Bounds of the snapshot the model sees of a page.
const (
	maxElements   = 80   // role/name pairs listed
	maxRows       = 20   // table rows listed
	maxCell       = 80   // characters of one cell, field value or name
	maxExcerpt    = 600  // characters of page text in the snapshot
	maxPageText   = 8000 // characters read_page_text returns
	maxScreenshot = 4 << 20
)

// interactiveRoles are listed before the other named elements.
var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "combobox": true,
	"listbox": true, "option": true, "checkbox": true, "radio": true, "switch": true,
	"slider": true, "spinbutton": true, "tab": true, "menuitem": true,
}

// snapshot renders what the model sees of a sample: URL and title, the alert and notice, the
// form's fields, the interactive elements and then the other named ones, the table's rows and
// an excerpt of the text, each bounded, and the time left.
func snapshot(s agent.Sample, left time.Duration) string {
	var b strings.Builder
	seen := fmt.Sprintf("observed at %d ms", s.AtMS)
	if s.Seq > 0 {
		seen = fmt.Sprintf("observation %d, %s", s.Seq, seen)
	}
	fmt.Fprintf(&b, "Current page (%s): %s\nTitle: %s\n", seen, s.URL, clip(s.Title, 200))
	if s.DialogOpen {
		b.WriteString("A dialog is open.\n")
	}
	if s.Alert != "" {
		fmt.Fprintf(&b, "Alert: %s\n", clip(s.Alert, 300))
	}
	if s.Notice != "" {
		fmt.Fprintf(&b, "Status notice: %s\n", clip(s.Notice, 300))
	}
	if len(s.Fields) > 0 {
		b.WriteString("Form fields:\n")
		for _, f := range s.Fields {
			fmt.Fprintf(&b, "- %s %q = %q", f.Role, clip(f.Name, maxCell), clip(f.Value, maxCell))
			if f.Invalid {
				b.WriteString(" (invalid)")
			}
			b.WriteByte('\n')
		}
	}
	inter, other := splitPairs(s.Pairs)
	listed := 0
	for _, group := range []struct {
		title string
		pairs []agent.RoleName
	}{{"Interactive elements", inter}, {"Other named elements", other}} {
		if len(group.pairs) == 0 || listed >= maxElements {
			continue
		}
		b.WriteString(group.title + ":\n")
		for _, p := range group.pairs {
			if listed == maxElements {
				fmt.Fprintf(&b, "- … %d more not listed\n", len(inter)+len(other)-listed)
				break
			}
			fmt.Fprintf(&b, "- %s %q\n", p.Role, clip(p.Name, maxCell))
			listed++
		}
	}
	if len(s.Rows) > 0 {
		fmt.Fprintf(&b, "Table rows (%d):\n", len(s.Rows))
		for i, row := range s.Rows {
			if i == maxRows {
				fmt.Fprintf(&b, "- … %d more rows\n", len(s.Rows)-maxRows)
				break
			}
			cells := make([]string, len(row))
			for j, c := range row {
				cells[j] = clip(c, maxCell)
			}
			fmt.Fprintf(&b, "- %s\n", strings.Join(cells, " | "))
		}
	}
	if s.Text != "" {
		fmt.Fprintf(&b, "Page text (start; call read_page_text for more): %s\n", clip(s.Text, maxExcerpt))
	}
	fmt.Fprintf(&b, "Time left: %s.", left.Round(time.Second))
	return b.String()
}

// splitPairs separates interactive elements from other named ones, each without repeats
// and in page order; unnamed non-interactive elements are left out.
func splitPairs(pairs []agent.RoleName) (inter, other []agent.RoleName) {
	seen := map[agent.RoleName]bool{}
	for _, p := range pairs {
		if seen[p] {
			continue
		}
		seen[p] = true
		switch {
		case interactiveRoles[p.Role]:
			inter = append(inter, p)
		case p.Name != "":
			other = append(other, p)
		}
	}
	return inter, other
}

// pageText answers read_page_text from the observation.
func pageText(s agent.Sample) string {
	if s.Text == "" {
		return "The page has no visible text."
	}
	return clip(s.Text, maxPageText)
}

// clip cuts s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// screenshot reads the sample's screenshot from dir, or returns nil when there is none or it
// cannot be read (the model then plans from the snapshot alone).
func screenshot(dir string, s agent.Sample) *image {
	if dir == "" || s.Screenshot == "" || !filepath.IsLocal(s.Screenshot) {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, s.Screenshot))
	if err != nil || len(data) == 0 || len(data) > maxScreenshot {
		return nil
	}
	mt := "image/jpeg"
	if strings.EqualFold(filepath.Ext(s.Screenshot), ".png") {
		mt = "image/png"
	}
	return &image{MediaType: mt, Data: data}
}
