package httpapi

import (
	"crypto/rand"
	"crypto/subtle"
	"net"
	"net/http"
)

// cookieName holds the access token once the printed address has been opened.
const cookieName = "observatory_session"

// NewToken returns a fresh random access token.
func NewToken() string { return rand.Text() }

// guard admits only requests from this machine's user: the Host must be a loopback name (a
// page on another site that rebinds its DNS name to 127.0.0.1 is refused); the request must
// come from this server's own pages or from the user directly, not from a page of another
// origin (see sameOrigin); and it must carry the access token, as a cookie set when the
// printed address (/?token=…) is opened. The cookie is HttpOnly and SameSite=Strict, so
// images, video and the WebSocket carry it and no other site can; but SameSite counts
// another port of 127.0.0.1 as the same site, which is why the origin is checked as well.
type guard struct {
	token string
}

func (g *guard) admit(w http.ResponseWriter, r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if !loopbackHost(host) {
		http.Error(w, "this server answers only to localhost, 127.0.0.1 or [::1]", http.StatusMisdirectedRequest)
		return false
	}
	if why := crossOrigin(r); why != "" {
		http.Error(w, "refused: "+why+"; only Observatory's own pages may use this server", http.StatusForbidden)
		return false
	}
	if c, err := r.Cookie(cookieName); err == nil && g.valid(c.Value) {
		return true
	}
	if t := r.URL.Query().Get("token"); t != "" && g.valid(t) {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: g.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, withoutToken(r.URL), http.StatusSeeOther)
		return false
	}
	http.Error(w, "Open the address `observatory serve` printed: it carries this session's access token.", http.StatusForbidden)
	return false
}

func (g *guard) valid(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(g.token)) == 1
}

// loopbackHost reports whether host names this machine's loopback.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LocalOnly serves next only to requests whose Host is a loopback name and that come from no
// other origin's page: serve's checks short of its access token, for a server whose clients
// are programs on this machine (an MCP client) rather than the printed address opened in a
// browser.
func LocalOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if !loopbackHost(host) {
			http.Error(w, "this server answers only to localhost, 127.0.0.1 or [::1]", http.StatusMisdirectedRequest)
			return
		}
		if why := crossOrigin(r); why != "" {
			http.Error(w, "refused: "+why+"; no web page may use this server", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
