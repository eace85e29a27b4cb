package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameBytes bounds a saved file's name: most file systems refuse more than 255 bytes.
const maxNameBytes = 200

// maxCopies bounds how many numbered names Create tries before it gives up.
const maxCopies = 1000

// fallbackName is the name of a download whose offered name has nothing usable left.
const fallbackName = "download"

// reservedWindows are the device names Windows refuses as a file's name, with or without an
// extension.
var reservedWindows = regexp.MustCompile(`(?i)^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$`)

// forbidden are characters Windows refuses in names, and the path separators everywhere.
const forbidden = `<>:"/\|?*`

// SafeName turns the name a page offers for a download into one safe to create in a folder
// on any system: the last path element only (no `..`, no folders), no control or format
// characters, none of <>:"/\|?*, no leading dots (hidden files) or trailing dots and
// spaces, no Windows device name (CON, NUL, COM1…), at most maxNameBytes bytes with the
// extension kept. A name with nothing left is "download".
func SafeName(offered string) string {
	name := offered
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			continue
		case strings.ContainsRune(forbidden, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.TrimLeft(strings.TrimSpace(b.String()), ". ")
	name = strings.TrimRight(name, ". ")
	if reservedWindows.MatchString(name) {
		name = "_" + name
	}
	name = truncate(name)
	if name == "" {
		return fallbackName
	}
	return name
}

// truncate shortens name to maxNameBytes, keeping a short extension and whole characters.
func truncate(name string) string {
	if len(name) <= maxNameBytes {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	return cut(name[:len(name)-len(ext)], maxNameBytes-len(ext)) + ext
}

// cut shortens s to at most n bytes of whole characters, without trailing dots or spaces.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], ". ")
}

// Create creates a new file in dir for a download offered as offered, under its SafeName,
// or, when a file of that name exists, "stem (2).ext", "stem (3).ext"…: it never opens an
// existing file. It returns the open file and the name it got.
func Create(dir, offered string) (*os.File, string, error) {
	if dir == "" {
		return nil, "", errors.New("save a download: the task names no downloads folder; set `downloads:` in the task file")
	}
	name := SafeName(offered)
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 1; n <= maxCopies; n++ {
		try := name
		if n > 1 {
			suffix := fmt.Sprintf(" (%d)", n)
			try = cut(stem, maxNameBytes-len(suffix)-len(ext)) + suffix + ext
		}
		f, err := os.OpenFile(filepath.Join(dir, try), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, try, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", fmt.Errorf("save download %q as %s in %s: %w", offered, try, dir, err)
		}
	}
	return nil, "", fmt.Errorf("save download %q: %d files named like %s already exist in %s; empty the folder", offered, maxCopies, name, dir)
}
