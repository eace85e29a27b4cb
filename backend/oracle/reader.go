package oracle

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/netguard"
)

// Bounds on reading state, so an oracle that cannot answer never hangs the attempt.
const (
	// requestTimeout bounds one HTTP request, body included.
	requestTimeout = 2 * time.Second
	// queryTimeout bounds one SQL query, connecting included.
	queryTimeout = 2 * time.Second
	// roundTimeout bounds asking all of an environment's conditions once.
	roundTimeout = 5 * time.Second
	// parallel is how many conditions are asked at once.
	parallel = 4
	// maxRedirects is how many redirects an HTTP condition follows.
	maxRedirects = 5
)

// Site is what a reader needs to know about the app it reads.
type Site struct {
	// Base is what relative URLs resolve against (the task's base URL, or a lab's address).
	Base *url.URL
	// Origins are the origins HTTP conditions may reach; a redirect elsewhere is refused.
	Origins []string
	// LookupEnv reads environment variables (header values, DSNs); nil is os.LookupEnv's
	// absence: every variable unset.
	LookupEnv func(string) (string, bool)
	// Secrets are values no answer may show (typed secrets, header values, DSNs).
	Secrets []string
	// LinkLocal lets requests reach link-local and cloud-metadata addresses (see
	// netguard); without it a connection to one is refused, whatever name led there.
	LinkLocal bool
}

// Reader asks one environment's conditions. It keeps its database connections and HTTP
// connections between asks; Close releases them. It is safe for concurrent use.
type Reader struct {
	site   Site
	client *http.Client

	mu  sync.Mutex
	dbs map[string]*sql.DB
}

// NewReader returns a reader of site.
func NewReader(site Site) *Reader {
	if site.LookupEnv == nil {
		site.LookupEnv = func(string) (string, bool) { return "", false }
	}
	rd := &Reader{site: site, dbs: map[string]*sql.DB{}}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if !site.LinkLocal {
		dialer := &net.Dialer{Timeout: requestTimeout, Control: netguard.Control}
		transport.DialContext = dialer.DialContext
	}
	rd.client = &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if o := Origin(req.URL); !slices.Contains(site.Origins, o) {
				return fmt.Errorf("redirected to %s, outside the task's origins", o)
			}
			return nil
		},
	}
	return rd
}

// Origin is u's origin, "scheme://host[:port]", lower case.
func Origin(u *url.URL) string {
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// Ask reads every condition's answer now, in order. Page conditions share one observation
// of the page; HTTP conditions making the same request share one response, so conditions
// asked together judge one moment. observe may be nil when no condition reads the page.
func (rd *Reader) Ask(ctx context.Context, conds []Condition, observe agent.Observer) []agent.Answer {
	ctx, cancel := context.WithTimeout(ctx, roundTimeout)
	defer cancel()
	r := &round{rd: rd, observe: observe, fetches: map[string]*fetch{}}
	answers := make([]agent.Answer, len(conds))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, c := range conds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			a := agent.Answer{Condition: c.ID, Kind: c.Check.Kind()}
			raw, err := c.Check.ask(ctx, r)
			if err != nil {
				a.Error = redactString(err.Error(), rd.site.Secrets)
			} else {
				a.Raw = raw
			}
			answers[i] = a
		})
	}
	wg.Wait()
	return answers
}

// Close closes the reader's database and idle HTTP connections.
func (rd *Reader) Close() error {
	rd.client.CloseIdleConnections()
	rd.mu.Lock()
	defer rd.mu.Unlock()
	var errs []error
	for _, db := range rd.dbs {
		errs = append(errs, db.Close())
	}
	rd.dbs = map[string]*sql.DB{}
	return errors.Join(errs...)
}

// resolve makes ref absolute against the site's base.
func (rd *Reader) resolve(ref string) (*url.URL, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	if u.IsAbs() {
		return u, nil
	}
	if rd.site.Base == nil {
		return nil, fmt.Errorf("relative URL %q and no base URL to resolve it against", ref)
	}
	return rd.site.Base.ResolveReference(u), nil
}

// expand replaces ${NAME} in s with environment variables; an unset one is an error.
func (rd *Reader) expand(s string) (string, error) {
	return Expand(s, rd.site.LookupEnv)
}

// db returns the reader's connection pool for driver and dsn, opening it once.
func (rd *Reader) db(driver, dsn string) (*sql.DB, error) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	key := driver + "\x00" + dsn
	if db, ok := rd.dbs[key]; ok {
		return db, nil
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(2)
	rd.dbs[key] = db
	return db, nil
}

// round is one Ask: the page observed once, and each distinct HTTP request made once.
type round struct {
	rd      *Reader
	observe agent.Observer

	sampleOnce sync.Once
	sample     agent.Sample
	sampleErr  error

	mu      sync.Mutex
	fetches map[string]*fetch
}

// page observes the page once per round.
func (r *round) page(ctx context.Context) (agent.Sample, error) {
	r.sampleOnce.Do(func() {
		if r.observe == nil {
			r.sampleErr = errors.New("there is no page to observe")
			return
		}
		r.sample, r.sampleErr = r.observe(ctx)
		if r.sampleErr != nil {
			r.sampleErr = fmt.Errorf("observing the page failed: %w", r.sampleErr)
		}
	})
	return r.sample, r.sampleErr
}

// response is what an HTTP request returned, its body cut at maxResponse.
type response struct {
	status      int
	contentType string
	body        []byte
	truncated   bool
}

type fetch struct {
	once sync.Once
	res  response
	err  error
}

// do makes req once per round: the same method, URL and headers share the response.
func (r *round) do(ctx context.Context, req *http.Request) (response, error) {
	var key strings.Builder
	key.WriteString(req.Method + " " + req.URL.String())
	for _, k := range slices.Sorted(maps.Keys(req.Header)) {
		key.WriteString("\n" + k + ": " + strings.Join(req.Header[k], ", "))
	}
	r.mu.Lock()
	f, ok := r.fetches[key.String()]
	if !ok {
		f = &fetch{}
		r.fetches[key.String()] = f
	}
	r.mu.Unlock()
	f.once.Do(func() { f.res, f.err = r.rd.roundTrip(ctx, req) })
	return f.res, f.err
}

// roundTrip makes one request within requestTimeout and reads at most maxResponse+1 bytes;
// each condition then keeps what its evidence bound allows.
func (rd *Reader) roundTrip(ctx context.Context, req *http.Request) (response, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := rd.client.Do(req.WithContext(ctx))
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return response{}, fmt.Errorf("reading the response body: %w", err)
	}
	res := response{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: body}
	if len(body) > maxResponse {
		res.body, res.truncated = body[:maxResponse], true
	}
	return res, nil
}
