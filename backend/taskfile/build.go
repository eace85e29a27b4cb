package taskfile

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/confine"
	"observatory/backend/oracle"
)

// Limits on what a task file may declare.
const (
	// MaxSteps is the most plan steps (and, separately, setup steps).
	MaxSteps = 200
	// MaxConditions is the most conditions, success, truth and signals together.
	MaxConditions = 100
	// MaxAttempts is the most attempts.
	MaxAttempts = 100
	// maxText bounds names, labels, descriptions and the like, in bytes.
	maxText = 4096
)

// slug is the shape of names, attempt names and ids.
var slug = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// reserved are ids the verdicts use for themselves.
var reserved = []string{"truth", agent.GateID}

// builder maps a Document to a suite, checking everything with the path of each field.
type builder struct {
	opts Options
	dir  string
	s    *suite
	// ids are the ids of conditions whose answers are recorded (the gate's, the truth's and
	// page signals'), signalIDs the signals'; each maps to the path that declared it.
	ids       map[string]string
	signalIDs map[string]string
	nConds    int
	origins   []string
	// masked is the base URL of a recorded task, judged only, that held a masked value.
	masked string
	// waits are the steps' references to success conditions, checked once those are known.
	waits []conditionRef
}

// conditionRef is a step's reference to a success condition, and where it is.
type conditionRef struct{ id, at string }

// build maps doc to a suite. doc is normalized in place for Spec: base URL and SQLite paths
// expanded with the values read from the environment masked, literal secret values masked.
func build(doc *Document, opts Options, dir string) (*suite, error) {
	env := envReads(doc, opts.Trust)
	if refused := refusedNames(env); len(refused) > 0 && opts.Confirm != nil && opts.Confirm(slices.Clone(env)) {
		opts.Trust.Env = append(slices.Clone(opts.Trust.Env), refused...)
		env = envReads(doc, opts.Trust)
	}
	opts.LookupEnv = opts.Trust.guard(opts.LookupEnv)
	b := &builder{opts: opts, dir: dir, ids: map[string]string{}, signalIDs: map[string]string{}}
	b.s = &suite{lookupEnv: opts.LookupEnv, trust: opts.Trust, dir: dir, env: env}
	steps := []func(*Document) error{b.header, b.where, b.folders, b.session, b.authority, b.plan, b.planning, b.agentSection, b.success, b.waitedFor, b.signals, b.truth, b.budgets, b.safeguards, b.attempts}
	for _, step := range steps {
		if err := step(doc); err != nil {
			return nil, err
		}
	}
	return b.s, nil
}

func (b *builder) header(doc *Document) error {
	switch {
	case doc.Schema != SchemaV1:
		return errAt("schema", "want %q, got %q", SchemaV1, doc.Schema)
	case !slug.MatchString(doc.Name) || len(doc.Name) > 100:
		return errAt("name", "want a slug of at most 100 characters ([a-z0-9][a-z0-9._-]*, like create-issue), got %q", doc.Name)
	case strings.TrimSpace(doc.Intent) == "":
		return errAt("intent", "say what the user asks for")
	case len(doc.Intent) > maxText:
		return errAt("intent", "at most %d bytes", maxText)
	}
	b.s.task = agent.Task{Name: doc.Name, Intent: doc.Intent}
	if doc.Lab != "" {
		lab, err := b.opts.lab(doc.Lab)
		if err != nil {
			return errAt("lab", "%v", err)
		}
		b.s.lab = lab
	}
	return nil
}

// where checks base_url, start_url and origins.
func (b *builder) where(doc *Document) error {
	if doc.BaseURL != "" {
		if b.s.lab != nil {
			return errAt("base_url", "a lab task's relative URLs resolve against the lab's own address; give no base_url")
		}
		expanded, err := b.expand("base_url", doc.BaseURL)
		if err != nil {
			return err
		}
		if b.opts.judgeOnly && strings.Contains(expanded, oracle.Mask) {
			// A run file's task had a value from the environment here, masked: judging
			// needs no URL, so its URLs are placed against it as text, unchecked.
			b.masked = expanded
			return b.whereMasked(doc)
		}
		u, err := absoluteHTTP(expanded)
		if err == nil {
			err = b.opts.Trust.checkHost(u)
		}
		if err != nil {
			return errAt("base_url", "%v", err)
		}
		doc.BaseURL, b.s.base = b.s.mask(expanded), u
	}
	for i, o := range doc.Origins {
		origin, err := parseOrigin(o)
		if err == nil {
			u, _ := url.Parse(origin) // parsed by parseOrigin
			err = b.opts.Trust.checkHost(u)
		}
		if err != nil {
			return errAt(index("origins", i), "%v", err)
		}
		b.origins = append(b.origins, origin)
	}
	if doc.StartURL == "" {
		return errAt("start_url", "say where the attempt starts")
	}
	if len(doc.Origins) == 0 && b.s.lab == nil {
		u, err := b.resolve(doc.StartURL)
		if err == nil {
			err = b.opts.Trust.checkHost(u)
		}
		if err != nil {
			return errAt("start_url", "%v", err)
		}
		b.origins = []string{oracle.Origin(u)}
	}
	start, err := b.place(doc.StartURL)
	if err != nil {
		return errAt("start_url", "%v", err)
	}
	b.s.task.StartURL, b.s.task.Origins = start, b.origins
	return nil
}

// resolve makes raw absolute against the base URL.
func (b *builder) resolve(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("not a URL: %v", err)
	}
	if !u.IsAbs() {
		if b.s.base == nil {
			return nil, fmt.Errorf("%q is relative: give base_url, or a lab, to resolve it against", raw)
		}
		u = b.s.base.ResolveReference(u)
	}
	if _, err := absoluteHTTP(u.String()); err != nil {
		return nil, err
	}
	return u, nil
}

// place checks a URL the attempt uses and says how to write it: absolute and inside the
// origins (resolved against base_url when relative), or, in a lab task, a path from the
// root that resolves against the lab's address when it starts.
func (b *builder) place(raw string) (string, error) {
	if b.masked != "" {
		return placeMasked(b.masked, raw), nil // a recorded task's, judged only: see whereMasked
	}
	if u, err := url.Parse(raw); err == nil && !u.IsAbs() && b.s.lab != nil {
		if !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") {
			return "", fmt.Errorf("%q: in a lab task a relative URL is a path from the lab's root, like /api/state", raw)
		}
		return raw, nil
	}
	u, err := b.resolve(raw)
	if err != nil {
		return "", err
	}
	if o := oracle.Origin(u); !slices.Contains(b.origins, o) {
		return "", fmt.Errorf("%s is outside the task's origins (%s)", u.Redacted(), strings.Join(b.origins, ", "))
	}
	return u.String(), nil
}

// absoluteHTTP parses an absolute http or https URL without credentials.
func absoluteHTTP(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("not a URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("%q: want an http or https URL", raw)
	case u.User != nil:
		return nil, fmt.Errorf("%q: credentials do not belong in a URL; use headers with ${NAME} values", u.Redacted())
	}
	return u, nil
}

// parseOrigin checks that raw is an origin, scheme://host[:port], and normalizes it.
func parseOrigin(raw string) (string, error) {
	u, err := absoluteHTTP(raw)
	if err != nil {
		return "", err
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q: an origin is scheme://host[:port], with no path", raw)
	}
	return oracle.Origin(u), nil
}

func (b *builder) session(doc *Document) error {
	if doc.Session == nil {
		return nil
	}
	if doc.Session.StorageState == "" && len(doc.Session.Setup) == 0 {
		return errAt("session", "give storage_state, setup, or both")
	}
	if p := doc.Session.StorageState; p != "" {
		b.s.storageState = b.file(p)
		info, err := os.Stat(b.s.storageState)
		switch {
		case b.opts.judgeOnly: // judging a recorded run needs no file of the machine it ran on
		case err != nil:
			return errAt("session.storage_state", "%v; save the browser's storage state there, or name another file", err)
		case !info.Mode().IsRegular():
			return errAt("session.storage_state", "%s is not a file", b.s.storageState)
		}
		if b.s.storageState, err = b.confined("session.storage_state", p); err != nil {
			return err
		}
	}
	return b.steps(doc.Session.Setup, "session.setup", "setup")
}

// folders resolves the uploads and downloads folders against the task file's folder; each
// must be an existing folder.
func (b *builder) folders(doc *Document) error {
	for _, f := range []struct {
		field, path string
		into        *string
	}{{"uploads", doc.Uploads, &b.s.task.Uploads}, {"downloads", doc.Downloads, &b.s.task.Downloads}} {
		if f.path == "" {
			continue
		}
		p := b.file(f.path)
		info, err := os.Stat(p)
		switch {
		case b.opts.judgeOnly: // judging a recorded run needs no folder of the machine it ran on
		case err != nil:
			return errAt(f.field, "%v; create the folder or name another", err)
		case !info.IsDir():
			return errAt(f.field, "%s is not a folder", p)
		}
		if p, err = b.confined(f.field, f.path); err != nil {
			return err
		}
		*f.into = p
	}
	return nil
}

// file resolves a path relative to the task file's folder.
func (b *builder) file(p string) string {
	if filepath.IsAbs(p) || b.dir == "" {
		return p
	}
	return filepath.Join(b.dir, p)
}

// waitsFor checks a step that waits for a condition: a wait_for, without a target or
// optional, whose condition is looked up once the success conditions are known (waitedFor).
func (b *builder) waitsFor(st *Step, at string) error {
	switch {
	case st.Action != string(agent.ActWaitFor):
		return errAt(join(at, "condition"), "only a wait_for step waits for a condition")
	case st.Target != nil:
		return errAt(at, "a wait_for step waits for a target or a condition, not both")
	case st.Optional:
		return errAt(join(at, "optional"), "a wait for a condition is not optional: it fails when the condition does not hold in time")
	}
	b.waits = append(b.waits, conditionRef{id: st.Condition, at: join(at, "condition")})
	return nil
}

// waitedFor refuses a step waiting for a condition that is not one of the gate's.
func (b *builder) waitedFor(*Document) error {
	for _, w := range b.waits {
		if !slices.ContainsFunc(b.s.success, func(c oracle.Condition) bool { return c.ID == w.id }) {
			ids := make([]string, len(b.s.success))
			for i, c := range b.s.success {
				ids[i] = c.ID
			}
			return errAt(w.at, "%q is not a success condition; the task's are %s", w.id, strings.Join(ids, ", "))
		}
	}
	return nil
}

func (b *builder) plan(doc *Document) error {
	return b.steps(doc.Plan, "plan", "step")
}

// steps maps scripted steps; ids default to prefix-N.
func (b *builder) steps(steps []Step, path, prefix string) error {
	if len(steps) > MaxSteps {
		return errAt(path, "%d steps; at most %d", len(steps), MaxSteps)
	}
	for i := range steps {
		at := index(path, i)
		st, err := b.step(&steps[i], at, fmt.Sprintf("%s-%d", prefix, i+1))
		if err != nil {
			return err
		}
		st.action.Setup = prefix == "setup"
		for _, prev := range b.s.steps {
			if prev.action.ID == st.action.ID {
				return errAt(join(at, "id"), "%q is used by another step", st.action.ID)
			}
		}
		b.s.steps = append(b.s.steps, st)
	}
	return nil
}

func (b *builder) step(st *Step, at, defaultID string) (planStep, error) {
	kind := agent.ActionKind(st.Action)
	if !slices.Contains(agent.ActionKinds, kind) {
		return planStep{}, errAt(join(at, "action"), "%q: want one of %s", st.Action, kindList())
	}
	id := st.ID
	if id == "" {
		id = defaultID
	} else if !slug.MatchString(id) {
		return planStep{}, errAt(join(at, "id"), "want a slug ([a-z0-9][a-z0-9._-]*), got %q", id)
	}
	if strings.TrimSpace(st.Description) == "" || len(st.Description) > maxText {
		return planStep{}, errAt(join(at, "description"), "describe the step in a sentence (at most %d bytes)", maxText)
	}
	a := agent.Action{ID: id, Description: st.Description, Kind: kind, Secret: st.Secret || st.ValueEnv != "", Optional: st.Optional}
	if st.Condition != "" {
		if err := b.waitsFor(st, at); err != nil {
			return planStep{}, err
		}
		a.Condition = st.Condition
	}
	if st.TimeoutMS != 0 {
		if !kind.NeedsTarget() {
			return planStep{}, errAt(join(at, "timeout_ms"), "only a step with a target has a timeout: a navigate step waits for the page's load, a verify step under the wait policy (deadline_ms)")
		}
		if st.TimeoutMS < 1 || st.TimeoutMS > agent.MaxActionTimeoutMS {
			return planStep{}, errAt(join(at, "timeout_ms"), "%d: want milliseconds from 1 to %d", st.TimeoutMS, agent.MaxActionTimeoutMS)
		}
		a.TimeoutMS = st.TimeoutMS
	}
	if st.Optional && !kind.NeedsTarget() {
		return planStep{}, errAt(join(at, "optional"), "only a step with a target can be optional: it is skipped when its target is not there")
	}
	switch {
	case st.Target == nil && kind.NeedsTarget() && st.Condition == "":
		return planStep{}, errAt(join(at, "target"), "a %s step needs a target", kind)
	case st.Target != nil && (kind == agent.ActNavigate || kind == agent.ActVerify):
		return planStep{}, errAt(join(at, "target"), "a %s step has no target", kind)
	case st.Target != nil:
		t, err := target(st.Target, join(at, "target"))
		if err != nil {
			return planStep{}, err
		}
		a.Target = t
	}
	given := st.Value != nil || st.ValueEnv != ""
	switch {
	case st.Value != nil && st.ValueEnv != "":
		return planStep{}, errAt(at, "give value or value_env, not both")
	case kind.NeedsValue() && !given:
		return planStep{}, errAt(join(at, "value"), "a %s step needs a value (or value_env)", kind)
	case !kind.NeedsValue() && given:
		return planStep{}, errAt(join(at, "value"), "a %s step takes no value", kind)
	case st.Secret && st.Value == nil:
		return planStep{}, errAt(join(at, "secret"), "secret marks a literal value; a value_env value is secret already")
	case kind == agent.ActNavigate && (st.ValueEnv != "" || st.Secret):
		return planStep{}, errAt(join(at, "value"), "a navigate step's URL is checked against the origins, so it is neither secret nor from the environment")
	case st.ValueEnv != "" && !envName(st.ValueEnv):
		return planStep{}, errAt(join(at, "value_env"), "%q is not an environment variable name", st.ValueEnv)
	}
	if st.Value != nil {
		a.Value = *st.Value
	}
	switch {
	case kind == agent.ActUpload && b.s.task.Uploads == "":
		return planStep{}, errAt(at, "an upload step needs the task's uploads folder: set `uploads:`")
	case kind == agent.ActUpload && st.Value != nil:
		if err := confine.CheckName(a.Value); err != nil {
			return planStep{}, errAt(join(at, "value"), "%v", err)
		}
	case kind == agent.ActDownload && b.s.task.Downloads == "":
		return planStep{}, errAt(at, "a download step needs the task's downloads folder: set `downloads:`")
	}
	if kind == agent.ActNavigate {
		if u, err := url.Parse(a.Value); err == nil && !u.IsAbs() && b.s.lab != nil {
			return planStep{}, errAt(join(at, "value"), "a lab task cannot navigate to a relative URL yet: the lab's address is known only when an attempt starts")
		}
		placed, err := b.place(a.Value)
		if err != nil {
			return planStep{}, errAt(join(at, "value"), "%v", err)
		}
		a.Value = placed
	}
	if st.Secret {
		masked := oracle.Mask
		st.Value = &masked // never in the normalized document
	}
	return planStep{action: a, valueEnv: st.ValueEnv}, nil
}

func envName(s string) bool {
	refs, err := oracle.EnvRefs("${" + s + "}")
	return err == nil && len(refs) == 1 && len(s) <= 128
}

func kindList() string {
	names := make([]string, len(agent.ActionKinds))
	for i, k := range agent.ActionKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// target maps a target, which names exactly one locator.
func target(t *Target, at string) (agent.Target, error) {
	out := agent.Target{Role: t.Role, Name: t.Name, Label: t.Label, Placeholder: t.Placeholder,
		TestID: t.TestID, Text: t.Text, CSS: t.CSS, Alias: t.Alias}
	kind, _ := out.Locator()
	switch {
	case out.Locators() != 1:
		return agent.Target{}, errAt(at, "give exactly one of role, label, placeholder, test_id, text, css")
	case t.Name != "" && kind != "role":
		return agent.Target{}, errAt(join(at, "name"), "name is the accessible name of a role; it goes with role")
	case t.Alias != "" && (kind == "test_id" || kind == "css"):
		return agent.Target{}, errAt(join(at, "alias"), "an alias stands in for a name, label, placeholder or text, not a %s", kind)
	}
	var frames []agent.FrameRef
	for i, f := range t.Frame {
		if n := countSet(f.Title, f.Name, f.CSS); n != 1 {
			return agent.Target{}, errAt(index(join(at, "frame"), i), "name the frame by exactly one of title, name, css")
		}
		frames = append(frames, agent.FrameRef{Title: f.Title, Name: f.Name, CSS: f.CSS})
	}
	var err error
	if out.Frames, err = agent.FramesOf(frames); err != nil {
		return agent.Target{}, errAt(join(at, "frame"), "%v", err)
	}
	if c := t.Within; c != nil {
		switch {
		case countSet(c.Role, c.TestID, c.CSS) != 1:
			return agent.Target{}, errAt(join(at, "within"), "name the container by exactly one of role (with name), test_id, css")
		case c.Name != "" && c.Role == "":
			return agent.Target{}, errAt(join(join(at, "within"), "name"), "name is text of the container's accessible name; it goes with role")
		}
		out.Within = agent.Container{Role: c.Role, Name: c.Name, TestID: c.TestID, CSS: c.CSS}
	}
	return out, nil
}

// countSet counts the non-empty strings of ss.
func countSet(ss ...string) int {
	n := 0
	for _, s := range ss {
		if s != "" {
			n++
		}
	}
	return n
}

func (b *builder) success(doc *Document) error {
	if len(doc.Success) == 0 {
		return errAt("success", "say what done means: at least one condition")
	}
	conds, err := b.conditions(doc.Success, "success")
	b.s.success = conds
	return err
}

func (b *builder) conditions(list []Condition, path string) ([]oracle.Condition, error) {
	var out []oracle.Condition
	for i := range list {
		at := index(path, i)
		c, err := b.condition(&list[i], at)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// counted counts one more condition or signal, at most MaxConditions.
func (b *builder) counted(at string) error {
	if b.nConds++; b.nConds > MaxConditions {
		return errAt(at, "more than %d conditions and signals", MaxConditions)
	}
	return nil
}

// id claims an id among ids (a condition's or a signal's).
func (b *builder) id(ids map[string]string, id, at string) error {
	switch {
	case !slug.MatchString(id):
		return errAt(join(at, "id"), "want a slug ([a-z0-9][a-z0-9._-]*), got %q", id)
	case slices.Contains(reserved, id):
		return errAt(join(at, "id"), "%q is reserved for the verdicts themselves", id)
	case ids[id] != "":
		return errAt(join(at, "id"), "%q is already the id of %s", id, ids[id])
	}
	ids[id] = at
	return nil
}

// count is how many of set are true.
func count(set ...bool) int {
	n := 0
	for _, b := range set {
		if b {
			n++
		}
	}
	return n
}

func label(l, id string) string {
	if l == "" {
		return id
	}
	return l
}

func (b *builder) condition(c *Condition, at string) (oracle.Condition, error) {
	if err := b.counted(at); err != nil {
		return oracle.Condition{}, err
	}
	if err := b.id(b.ids, c.ID, at); err != nil {
		return oracle.Condition{}, err
	}
	if len(c.Label) > maxText {
		return oracle.Condition{}, errAt(join(at, "label"), "at most %d bytes", maxText)
	}
	if count(c.Page != nil, c.HTTP != nil, c.SQL != nil) != 1 {
		return oracle.Condition{}, errAt(at, "give exactly one of page, http, sql")
	}
	var check oracle.Check
	var err error
	var sub string
	switch {
	case c.Page != nil:
		sub = join(at, "page")
		check, err = b.page(c.Page, sub)
	case c.HTTP != nil:
		sub = join(at, "http")
		check, err = b.http(c.HTTP, sub)
	default:
		sub = join(at, "sql")
		check, err = b.sql(c.SQL, sub)
	}
	if err != nil {
		return oracle.Condition{}, fieldPath(sub, err)
	}
	return oracle.Condition{ID: c.ID, Label: label(c.Label, c.ID), Check: check}, nil
}

// fieldPath places an oracle's *FieldError under at.
func fieldPath(at string, err error) error {
	var fe *oracle.FieldError
	switch {
	case errors.As(err, &fe) && fe.Field != "":
		return errAt(at+"."+fe.Field, "%s", fe.Reason)
	case errors.As(err, &fe):
		return errAt(at, "%s", fe.Reason)
	}
	return err
}

func (b *builder) page(p *PageCheck, at string) (oracle.Check, error) {
	spec := oracle.PageSpec{Text: p.Text, URL: p.URL}
	for _, f := range p.Frame {
		spec.Frame = append(spec.Frame, agent.FrameRef{Title: f.Title, Name: f.Name, CSS: f.CSS})
	}
	if p.Visible != nil {
		t, err := pageTarget(p.Visible, join(at, "visible"))
		if err != nil {
			return nil, err
		}
		spec.Visible = &t
	}
	if p.Value != nil {
		if p.Value.Target == nil || p.Value.Equals == nil {
			return nil, errAt(join(at, "value"), "give target and equals")
		}
		t, err := pageTarget(p.Value.Target, join(join(at, "value"), "target"))
		if err != nil {
			return nil, err
		}
		spec.Value, spec.Equals = &t, *p.Value.Equals
	}
	return oracle.NewPage(spec)
}

// pageTarget maps a page condition's target, which says nothing of where it is: the
// condition's own frame does.
func pageTarget(t *Target, at string) (agent.Target, error) {
	if t.Frame != nil || t.Within != nil {
		return agent.Target{}, errAt(at, "a page condition's target has no frame or within; give the condition's frame (page: {text: …, frame: {title: …}})")
	}
	return agent.Target{Role: t.Role, Name: t.Name, Label: t.Label, Placeholder: t.Placeholder,
		TestID: t.TestID, Text: t.Text, CSS: t.CSS, Alias: t.Alias}, nil
}

func (b *builder) http(h *HTTPCheck, at string) (oracle.Check, error) {
	if h.URL != "" {
		if _, err := b.place(h.URL); err != nil {
			return nil, errAt(join(at, "url"), "%v", err)
		}
	}
	c, err := oracle.NewHTTP(h.Method, h.URL, h.Headers, h.Expr)
	if err != nil {
		return nil, err
	}
	c.Say(h.Says)
	return c.WithEvidence(h.Pick, h.EvidenceKiB)
}

func (b *builder) sql(q *SQLCheck, at string) (oracle.Check, error) {
	path := q.Path
	if path != "" {
		expanded, err := b.expand(join(at, "path"), path)
		if err != nil {
			return nil, err
		}
		if path, err = b.confined(join(at, "path"), expanded); err != nil {
			return nil, err
		}
		q.Path = b.s.mask(expanded)
	}
	c, err := oracle.NewSQL(q.Driver, path, q.DSNEnv, q.Query, q.Expr)
	if err != nil {
		return nil, err
	}
	c.Say(q.Says)
	return c.WithEvidence(q.EvidenceKiB)
}

func (b *builder) signals(doc *Document) error {
	for i := range doc.Signals {
		sg := &doc.Signals[i]
		at := index("signals", i)
		if err := b.counted(at); err != nil {
			return err
		}
		if err := b.id(b.signalIDs, sg.ID, at); err != nil {
			return err
		}
		out := signal{id: sg.ID, label: label(sg.Label, sg.ID)}
		switch {
		case count(sg.Notice != nil, sg.Parallax != nil, sg.Page != nil, sg.Judge != nil) != 1:
			return errAt(at, "give exactly one of notice, parallax, page, judge")
		case sg.Notice != nil:
			if err := b.notice(sg.ID, sg.Notice, join(at, "notice"), &out); err != nil {
				return err
			}
		case sg.Parallax != nil:
			out.parallax = true
		case sg.Judge != nil:
			j, err := judgeOf(sg.ID, sg.Judge, join(at, "judge"))
			if err != nil {
				return err
			}
			out.judge = &j
		default:
			if err := b.id(b.ids, sg.ID, at); err != nil {
				return err
			}
			check, err := b.page(sg.Page, join(at, "page"))
			if err != nil {
				return fieldPath(join(at, "page"), err)
			}
			out.page = &oracle.Condition{ID: sg.ID, Label: out.label, Check: check}
		}
		b.s.signals = append(b.s.signals, out)
	}
	return nil
}

// notice maps a notice signal: its text, and the place the task names for it, which every
// observation of the task's pages then reads.
func (b *builder) notice(id string, n *Notice, at string, out *signal) error {
	if n.Text == "" {
		return errAt(join(at, "text"), "give the notice's text")
	}
	out.notice = n.Text
	t := n.Target
	if t == nil {
		return nil
	}
	others := t.Role != "" || t.Name != "" || t.Label != "" || t.Placeholder != "" || t.Text != "" ||
		t.Alias != "" || t.Frame != nil || t.Within != nil
	if others || (t.TestID == "") == (t.CSS == "") {
		return errAt(join(at, "target"), "give exactly one of test_id, css: the element the notice is shown in, which every observation watches")
	}
	if len(b.s.task.Notices) == agent.MaxNotices {
		return errAt(at, "more than %d notices named by where they are shown", agent.MaxNotices)
	}
	place := agent.NoticePlace{ID: id, TestID: t.TestID, CSS: t.CSS}
	b.s.task.Notices = append(b.s.task.Notices, place)
	out.place = &place
	return nil
}

func (b *builder) truth(doc *Document) error {
	switch {
	case doc.Truth == nil:
		return nil
	case doc.Truth.Lab && b.s.lab == nil:
		return errAt("truth", "truth: lab needs a lab")
	case doc.Truth.Lab:
		b.s.labTruth = true
		return nil
	case len(doc.Truth.Conditions) == 0:
		return errAt("truth", "give %q or at least one condition", TruthLab)
	}
	conds, err := b.conditions(doc.Truth.Conditions, "truth")
	b.s.truth = conds
	return err
}

func (b *builder) attempts(doc *Document) error {
	base := agent.DefaultConfig()
	if doc.Config != nil {
		o, err := override(doc.Config, "config")
		if err != nil {
			return err
		}
		if base = o.Apply(base); base.Validate() != nil {
			return errAt("config", "%v", base.Validate())
		}
	}
	base.Budgets, base.Safeguards = b.s.attemptBudgets, b.s.safeguards
	if len(doc.Attempts) == 0 {
		b.s.attempts = []agent.AttemptSpec{{Slug: doc.Name, Title: doc.Name, Config: base}}
		return nil
	}
	if len(doc.Attempts) > MaxAttempts {
		return errAt("attempts", "%d attempts; at most %d", len(doc.Attempts), MaxAttempts)
	}
	seen := map[string]bool{}
	for i, a := range doc.Attempts {
		at := index("attempts", i)
		switch {
		case !slug.MatchString(a.Name) || len(a.Name) > 100:
			return errAt(join(at, "name"), "want a slug of at most 100 characters ([a-z0-9][a-z0-9._-]*), got %q", a.Name)
		case seen[a.Name]:
			return errAt(join(at, "name"), "%q names another attempt too", a.Name)
		case len(a.Title) > maxText:
			return errAt(join(at, "title"), "at most %d bytes", maxText)
		case a.Fault != "" && b.s.lab == nil:
			return errAt(join(at, "fault"), "only a lab task has faults to start its app with")
		case len(a.Params) > 0 && b.s.lab == nil:
			return errAt(join(at, "params"), "only a lab task has parameters")
		}
		seen[a.Name] = true
		cfg := base
		if a.Config != nil {
			o, err := override(a.Config, join(at, "config"))
			if err != nil {
				return err
			}
			if cfg = o.Apply(base); cfg.Validate() != nil {
				return errAt(join(at, "config"), "%v", cfg.Validate())
			}
		}
		if a.Safeguards != nil {
			g, err := a.Safeguards.domain(join(at, "safeguards"))
			if err != nil {
				return err
			}
			cfg.Safeguards = g
		}
		b.s.attempts = append(b.s.attempts, agent.AttemptSpec{Slug: a.Name, Title: label(a.Title, a.Name),
			Fault: a.Fault, Params: a.Params, Config: cfg})
	}
	return nil
}

// override maps a config section to the agent's override.
func override(c *Config, at string) (agent.ConfigOverride, error) {
	o := agent.ConfigOverride{FixedWaitMS: c.FixedWaitMS, PollMS: c.PollMS, DeadlineMS: c.DeadlineMS, Budget: c.Budget}
	if c.Wait != nil {
		w := agent.WaitMode(*c.Wait)
		if w != agent.WaitFixed && w != agent.WaitCondition {
			return o, errAt(join(at, "wait"), "%q: want %s or %s", *c.Wait, agent.WaitFixed, agent.WaitCondition)
		}
		o.Wait = &w
	}
	if c.Selectors != nil {
		s := agent.SelectorMode(*c.Selectors)
		if s != agent.SelectExact && s != agent.SelectAlias {
			return o, errAt(join(at, "selectors"), "%q: want %s or %s", *c.Selectors, agent.SelectExact, agent.SelectAlias)
		}
		o.Selectors = &s
	}
	return o, nil
}
