package trackertest

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// SessionCookie is the cookie that carries a signed-in browser's session.
const SessionCookie = "tracker_session"

//go:embed login.html
var loginHTML string

var loginPage = template.Must(template.New("login").Parse(loginHTML))

// sessions are the tracker's one password and the sessions signed in with it.
type sessions struct {
	password string
	mu       sync.Mutex
	tokens   map[string]bool
}

func newSessions(password string) *sessions {
	return &sessions{password: password, tokens: map[string]bool{}}
}

// open checks password and, when it is the tracker's, returns a new session's token.
func (ss *sessions) open(password string) (string, bool) {
	if subtle.ConstantTimeCompare([]byte(password), []byte(ss.password)) != 1 {
		return "", false
	}
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	ss.mu.Lock()
	ss.tokens[token] = true
	ss.mu.Unlock()
	return token, true
}

func (ss *sessions) valid(token string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.tokens[token]
}

// signedIn reports whether r may write: it carries a session, or the tracker needs none.
func (s *Server) signedIn(r *http.Request) bool {
	if s.sessions == nil {
		return true
	}
	c, err := r.Cookie(SessionCookie)
	return err == nil && s.sessions.valid(c.Value)
}

// session tells the page whether writes need a session and whether it has one.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"required": s.sessions != nil, "signed_in": s.sessions != nil && s.signedIn(r)})
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = loginPage.Execute(w, struct{ Wrong bool }{r.URL.Query().Has("wrong")})
}

// login takes the sign-in form: the right password opens a session, in an HttpOnly cookie,
// and goes back to the issues; a wrong one comes back to the form, saying so.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if s.sessions == nil {
		http.Error(w, "this tracker needs no sign-in", http.StatusNotFound)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "a bad sign-in form", http.StatusBadRequest)
		return
	}
	token, ok := s.sessions.open(r.PostForm.Get("password"))
	if !ok {
		http.Redirect(w, r, "/login?wrong", http.StatusSeeOther)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// StorageState signs in with password over HTTP, as a browser would, and returns the session
// as a Playwright storage-state document (what a browser context's storageState saves), so a
// test can start a browser already signed in, and the session's token.
func (s *Server) StorageState(password string) (state []byte, token string, err error) {
	client := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.PostForm(s.URL+"login", url.Values{"password": {password}})
	if err != nil {
		return nil, "", fmt.Errorf("tracker: sign in: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	for _, c := range res.Cookies() {
		if c.Name == SessionCookie {
			token = c.Value
		}
	}
	if token == "" {
		return nil, "", fmt.Errorf("tracker: sign in: %s, and no session", res.Status)
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, "", err
	}
	type cookie struct {
		Name     string  `json:"name"`
		Value    string  `json:"value"`
		Domain   string  `json:"domain"`
		Path     string  `json:"path"`
		Expires  float64 `json:"expires"`
		HTTPOnly bool    `json:"httpOnly"`
		Secure   bool    `json:"secure"`
		SameSite string  `json:"sameSite"`
	}
	doc := struct {
		Cookies []cookie `json:"cookies"`
		Origins []any    `json:"origins"`
	}{Cookies: []cookie{{Name: SessionCookie, Value: token, Domain: u.Hostname(), Path: "/", Expires: -1, HTTPOnly: true, SameSite: "Lax"}}, Origins: []any{}}
	state, err = json.MarshalIndent(doc, "", "  ")
	return state, token, err
}
