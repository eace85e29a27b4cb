package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"os"
	"path"
	"strings"
)

// MaxMedia bounds the screenshots a report inlines, in bytes of their data: URLs. Past it,
// screenshots are left out and the report says how many.
const MaxMedia = 16 << 20

// maxShot bounds one screenshot file; a larger one is not a screenshot this app took.
const maxShot = 4 << 20

// shot is one screenshot as the template shows it: inlined, or why it is not.
type shot struct {
	Src     template.URL
	Alt     string
	Missing string
}

// inliner reads screenshots from a run's media folder and turns them into data: URLs,
// keeping count of the bytes so the report stays within MaxMedia.
type inliner struct {
	root  *os.Root // nil when the run has no media folder
	cache map[string]string
	used  int
	left  int
}

func newInliner(mediaDir string) *inliner {
	in := &inliner{cache: map[string]string{}}
	if mediaDir != "" {
		if r, err := os.OpenRoot(mediaDir); err == nil {
			in.root = r
		}
	}
	return in
}

func (in *inliner) close() {
	if in.root != nil {
		in.root.Close()
	}
}

// shot is the screenshot at name (a path inside the media folder), with alt as its text.
// Only JPEG files the run names are read, through an os.Root that cannot leave the folder.
func (in *inliner) shot(name, alt string) shot {
	s := shot{Alt: alt}
	if name == "" {
		s.Missing = "no screenshot was taken"
		return s
	}
	url, ok := in.cache[name]
	if !ok {
		var err error
		if url, err = in.read(name); err != nil {
			s.Missing = "screenshot not available: " + err.Error()
			return s
		}
		in.cache[name] = url
	}
	if in.used+len(url) > MaxMedia {
		in.left++
		s.Missing = fmt.Sprintf("screenshot left out: the report keeps its screenshots to %d MiB", MaxMedia>>20)
		return s
	}
	in.used += len(url)
	s.Src = template.URL(url) // built here from bytes checked to be a JPEG: never the run's text
	return s
}

// jpegMagic starts every JPEG file.
var jpegMagic = []byte{0xff, 0xd8, 0xff}

func (in *inliner) read(name string) (string, error) {
	if in.root == nil {
		return "", fmt.Errorf("the run's media folder is not here (a run file carries no media; import a bundle to keep it)")
	}
	if path.Ext(name) != ".jpg" || strings.Contains(name, "\\") {
		return "", fmt.Errorf("%q is not a screenshot", name)
	}
	f, err := in.root.Open(name)
	if err != nil {
		return "", fmt.Errorf("%s is gone from disk", name)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxShot+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	if len(b) > maxShot || !bytes.HasPrefix(b, jpegMagic) {
		return "", fmt.Errorf("%s is not a JPEG screenshot", name)
	}
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b), nil
}
