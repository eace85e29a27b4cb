package taskfile

import (
	"net/url"
	"strings"
)

// whereMasked places a recorded task's start URL and origins against its masked base URL,
// as text: they read as the live task's did, masked the same way. For judging only.
func (b *builder) whereMasked(doc *Document) error {
	if doc.StartURL == "" {
		return errAt("start_url", "say where the attempt starts")
	}
	for i, o := range doc.Origins {
		origin, err := parseOrigin(o)
		if err != nil {
			return errAt(index("origins", i), "%v", err)
		}
		b.origins = append(b.origins, origin)
	}
	if len(b.origins) == 0 {
		b.origins = []string{maskedOrigin(b.masked)}
	}
	start, _ := b.place(doc.StartURL)
	b.s.task.StartURL, b.s.task.Origins = start, b.origins
	return nil
}

// maskedOrigin is the scheme and host part of a masked base URL.
func maskedOrigin(base string) string {
	scheme, rest, ok := strings.Cut(base, "://")
	if !ok {
		scheme, rest = "", base
	}
	host, _, _ := strings.Cut(rest, "/")
	if scheme == "" {
		return host
	}
	return scheme + "://" + host
}

// placeMasked places raw against a masked base URL as text: a path from the root after its
// origin, any other relative reference after it.
func placeMasked(base, raw string) string {
	if u, err := url.Parse(raw); err == nil && u.IsAbs() {
		return raw
	}
	if strings.HasPrefix(raw, "/") {
		return maskedOrigin(base) + raw
	}
	return strings.TrimSuffix(base, "/") + "/" + raw
}
