package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// crossOrigin says why r comes from a page of another origin, or returns "" when it does
// not. A browser names where a request comes from in Sec-Fetch-Site (Fetch Metadata):
// same-origin (this server's own pages) and none (the user typed or opened the address) are
// admitted; same-site, which includes a page on another port of 127.0.0.1, and cross-site
// are not, for every kind of request, images and video included. When the browser sends an
// Origin, its host and port must be this server's. A request with neither header is not from
// a browser's page (or from a browser too old to say) and is left to the other checks.
func crossOrigin(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return fmt.Sprintf("a %s request (Sec-Fetch-Site: %q)", site, site)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host != r.Host || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Sprintf("a request from the page of origin %q, not %q", origin, "http://"+r.Host)
	}
	return ""
}

// withoutToken is where opening the printed address sends the browser once the token is in
// its cookie: the same path and query without the token, always a path on this server. The
// path is cleaned, so "//evil.example/x" becomes "/evil.example/x" and can never name
// another host, and escaped, so that no backslash is read as a slash.
func withoutToken(u *url.URL) string {
	q := u.Query()
	q.Del("token")
	p := path.Clean("/" + u.Path)
	if strings.HasSuffix(u.Path, "/") && p != "/" {
		p += "/"
	}
	return (&url.URL{Path: p, RawQuery: q.Encode()}).RequestURI()
}
