package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every character that a terminal would act on, or that hides or
// reorders text, written as a Go-style escape, and everything else as it is:
//   - newline, carriage return and tab as \n, \r and \t;
//   - other C0 controls and DEL as \xNN (ESC is \x1b, so no escape sequence reaches the
//     terminal whole);
//   - C1 controls (U+0080 to U+009F, which include the one-byte CSI and OSC) as \u0080 ...;
//   - Unicode format characters, which include the bidi embeddings, overrides and isolates
//     (U+202A to U+202E, U+2066 to U+2069), the directional marks and zero-width characters,
//     and the line and paragraph separators, as \uNNNN or \UNNNNNNNN;
//   - bytes that are not UTF-8 as \xNN.
//
// A backslash is left as it is: escaping is for what the terminal would otherwise do, and a
// file's literal "\n" cannot move the cursor.
func String(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !hazardous(r):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether String would change s.
func needsEscape(s string) bool {
	for i, r := range s {
		if hazardous(r) || (r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD")) {
			return true
		}
	}
	return false
}

// hazardous reports whether r is a control character (C0, DEL, C1), a format character
// (category Cf, which holds every bidi control and zero-width character) or a line or
// paragraph separator.
func hazardous(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
