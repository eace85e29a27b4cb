package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text is kept", "saves-normally: failed: no record", "saves-normally: failed: no record"},
		{"printable Unicode is kept", "Réservation — “Spectral scan” 北 ✓", "Réservation — “Spectral scan” 北 ✓"},
		{"a backslash is kept", `C:\runs\x1b`, `C:\runs\x1b`},
		{"a real U+FFFD is kept", "a\uFFFDb", "a\uFFFDb"},
		{"newline forging a row", "evil\nsaves-normally  yes", `evil\nsaves-normally  yes`},
		{"carriage return overwriting", "failed\rcompleted", `failed\rcompleted`},
		{"tab shifting a column", "a\tb", `a\tb`},
		{"CSI clearing the screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"OSC retitling the terminal", "\x1b]0;owned\x07", `\x1b]0;owned\x07`},
		{"OSC 8 hyperlink", "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;http://evil.example\x1b\click\x1b]8;;\x1b\`},
		{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7f`},
		{"C1 CSI and OSC", "\u009b2J\u009d0;x\u009c", `\u009b2J\u009d0;x\u009c`},
		{"bidi override", "gate: \u202edone\u202c", `gate: \u202edone\u202c`},
		{"bidi embeddings and isolates", "\u202a\u202b\u202d\u2066\u2067\u2068\u2069", `\u202a\u202b\u202d\u2066\u2067\u2068\u2069`},
		{"marks and zero-width characters", "a\u200eb\u200fc\u200bd\ufeffe\u061c", `a\u200eb\u200fc\u200bd\ufeffe\u061c`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"a tag character", "a\U000e0041", `a\U000e0041`},
		{"bytes that are not UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("%s: String(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// FuzzString checks that String's output never holds a character it escapes, is valid
// UTF-8, and leaves safe text alone.
func FuzzString(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;x\x07", "a\nb\r", "\u202e", "\xff", "\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if !utf8.ValidString(out) {
			t.Fatalf("String(%q) = %q is not UTF-8", s, out)
		}
		for _, r := range out {
			if hazardous(r) {
				t.Fatalf("String(%q) = %q still holds %U", s, out, r)
			}
		}
		if !needsEscape(s) && out != s {
			t.Fatalf("String changed safe text %q to %q", s, out)
		}
	})
}

func TestValidSlug(t *testing.T) {
	for _, ok := range []string{"saves-normally", "fixed-wait-slow-save", "a", "0", "v1.2_x", strings.Repeat("a", 64)} {
		if err := ValidSlug(ok); err != nil {
			t.Errorf("ValidSlug(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-lead", ".hidden", "_x", "Upper", "two words", "evil\nrow", "a/b", "..", "x\x1b[2J",
		"ünï", strings.Repeat("a", 65), "saves-normally\u202e"} {
		err := ValidSlug(bad)
		if err == nil || !strings.Contains(err.Error(), "want 1 to 64 of a-z") {
			t.Errorf("ValidSlug(%q) = %v, want a refusal", bad, err)
		}
	}
}
