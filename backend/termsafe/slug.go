package termsafe

import (
	"fmt"
	"regexp"
)

// slugPattern is the character set of an attempt slug.
var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// ValidSlug refuses a slug that is not 1 to 64 lower-case ASCII letters, digits, '.', '_'
// and '-', starting with a letter or digit. Slugs name attempts in tables, progress lines
// and media file names (<slug>.webm), so one from a file must print as itself and be a
// plain file name everywhere.
func ValidSlug(slug string) error {
	if !slugPattern.MatchString(slug) {
		return fmt.Errorf("attempt slug %q: want 1 to 64 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit", slug)
	}
	return nil
}
