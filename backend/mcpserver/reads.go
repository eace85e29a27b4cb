package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/browser"
)

// The tools that only read the page or the attempt's record. They are not steps: they run
// while the executor waits for the agent's next action, change nothing on the page, and the
// agent's next action is grounded on a fresh observation all the same.

// maxWait bounds browser_wait_for.
const maxWait = 30 * time.Second

// waitPoll is how often browser_wait_for looks at the page.
const waitPoll = 250 * time.Millisecond

type tabLister interface {
	Tabs(ctx context.Context) ([]browser.Tab, error)
}

// waitFor waits the given time, or until text appears or textGone disappears from the
// page's snapshot, at most maxWait.
func (s *server) waitFor(ctx context.Context, in waitArgs) (*mcp.CallToolResult, error) {
	limit := maxWait
	if in.Time > 0 {
		limit = min(time.Duration(in.Time*float64(time.Second)), maxWait)
	}
	if in.Text == "" && in.TextGone == "" {
		if in.Time <= 0 {
			return nil, errors.New("give text, textGone or time")
		}
		if err := s.look(ctx, func(agent.Page, []agent.Step) error { return s.sleep(ctx, limit) }); err != nil {
			return nil, err
		}
		return text(fmt.Sprintf("### Result\nWaited %s.\n", limit)), nil
	}
	var b strings.Builder
	err := s.look(ctx, func(page agent.Page, _ []agent.Step) error {
		deadline := time.Now().Add(limit)
		for {
			snap, _, err := snapshotNow(ctx, page)
			if err != nil {
				return err
			}
			appeared := in.Text == "" || strings.Contains(snap, in.Text)
			gone := in.TextGone == "" || !strings.Contains(snap, in.TextGone)
			if appeared && gone {
				s.refs = snapshotRefs(snap)
				b.WriteString("### Result\nThe page shows what you waited for.\n")
				writePageSections(ctx, &b, page, snap)
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("waited %s and the page still does not show what you waited for", limit)
			}
			if err := s.sleep(ctx, waitPoll); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return text(b.String()), nil
}

func (s *server) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.opts.Stopped:
		return errors.New("the session has ended")
	case <-s.opts.Session.Left():
		return errors.New("the agent left the session")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// screenshot returns the viewport as a PNG; what of the arguments it could not honour
// (an element, the full page, a file, another format or scale) the reply says.
func (s *server) screenshot(ctx context.Context, in screenshotArgs) (*mcp.CallToolResult, error) {
	var notes strings.Builder
	if in.Element != "" || in.Target != "" || in.Ref != "" {
		notes.WriteString("- element: the screenshot shows the whole viewport, not the element alone\n")
	}
	if in.FullPage {
		notes.WriteString("- fullPage: the screenshot shows the viewport, not the full scrollable page\n")
	}
	if in.Filename != "" {
		notes.WriteString("- filename: not written: the screenshot is returned, Observatory writes no files for the agent\n")
	}
	if in.Type != "" && in.Type != "png" {
		fmt.Fprintf(&notes, "- type: a png is returned, not %s\n", in.Type)
	}
	if in.Scale == "device" {
		notes.WriteString("- scale: the screenshot is taken at the browser's own scale\n")
	}
	var png []byte
	err := s.look(ctx, func(page agent.Page, _ []agent.Step) error {
		sh, ok := page.(screenshotter)
		if !ok {
			return errors.New("this browser cannot take screenshots")
		}
		var err error
		png, err = sh.Screenshot(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	content := []mcp.Content{&mcp.TextContent{Text: "### Result\nA screenshot of the current page's viewport.\n"}}
	if notes.Len() > 0 {
		content[0] = &mcp.TextContent{Text: "### Result\nA screenshot of the current page's viewport.\n### Observatory harness\n" + notes.String()}
	}
	return &mcp.CallToolResult{Content: append(content, &mcp.ImageContent{Data: png, MIMEType: "image/png"})}, nil
}

// tabs lists the attempt's tabs; opening, selecting or closing one is a recorded step (see
// tabStep).
func (s *server) tabs(ctx context.Context, in tabsArgs) (*mcp.CallToolResult, error) {
	switch in.Action {
	case "list":
	case "new", "select", "close":
		return s.tabStep(ctx, in)
	default:
		return nil, fmt.Errorf("action %q is none of list, new, close, select", in.Action)
	}
	var b strings.Builder
	err := s.look(ctx, func(page agent.Page, _ []agent.Step) error {
		tl, ok := page.(tabLister)
		if !ok {
			return errors.New("this browser cannot list its tabs")
		}
		tabs, err := tl.Tabs(ctx)
		b.WriteString(tabLines(tabs))
		return err
	})
	if err != nil {
		return nil, err
	}
	return text("### Open tabs\n" + untrusted + b.String()), nil
}

// tabLines lists tabs in Playwright MCP's words, the current one marked.
func tabLines(tabs []browser.Tab) string {
	var b strings.Builder
	for i, t := range tabs {
		mark := ""
		if t.Current {
			mark = " (current)"
		}
		fmt.Fprintf(&b, "- %d:%s [%s](%s)\n", i, mark, oneLine(t.Title), oneLine(t.URL))
	}
	return b.String()
}

// levels rank console levels, most severe first.
var levels = map[string]int{"error": 0, "warning": 1, "info": 2, "log": 2, "debug": 3}

func (s *server) console(ctx context.Context, in consoleArgs) (*mcp.CallToolResult, error) {
	want := 2
	if in.Level != "" {
		l, ok := levels[in.Level]
		if !ok {
			return nil, fmt.Errorf("level %q is none of error, warning, info, debug", in.Level)
		}
		want = l
	}
	var b strings.Builder
	err := s.look(ctx, func(_ agent.Page, steps []agent.Step) error {
		for _, st := range steps {
			for _, m := range st.Console {
				if l, ok := levels[m.Level]; !ok || l <= want {
					fmt.Fprintf(&b, "[%s] %s", strings.ToUpper(m.Level), m.Text)
					if m.Location != "" {
						fmt.Fprintf(&b, " @ %s", m.Location)
					}
					b.WriteString("\n")
				}
			}
			for _, e := range st.Errors {
				fmt.Fprintf(&b, "[PAGE ERROR] %s\n", e.Message)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.Len() == 0 {
		return text("### Result\nNo console messages in this attempt's steps.\n" + fileNote(in.Filename)), nil
	}
	return text("### Result\n" + untrusted + fenced("", b.String()) + fileNote(in.Filename)), nil
}

// static are the resource types browser_network_requests leaves out unless asked.
var static = map[string]bool{"image": true, "font": true, "stylesheet": true, "script": true, "media": true}

func (s *server) network(ctx context.Context, in networkArgs) (*mcp.CallToolResult, error) {
	var filter *regexp.Regexp
	if in.Filter != "" {
		var err error
		if filter, err = regexp.Compile(in.Filter); err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
	}
	var b strings.Builder
	err := s.look(ctx, func(_ agent.Page, steps []agent.Step) error {
		n := 0
		for _, st := range steps {
			for _, r := range st.Requests {
				n++ // numbered among all the attempt's requests, as browser_network_request takes them
				ok := r.Failure == "" && r.Status < 400
				if (!in.Static && static[r.ResourceType] && ok) || (filter != nil && !filter.MatchString(r.URL)) {
					continue
				}
				fmt.Fprintf(&b, "%d. [%s] %s", n, r.Method, r.URL)
				switch {
				case r.Failure != "":
					fmt.Fprintf(&b, " => [FAILED] %s", r.Failure)
				case r.Status != 0:
					fmt.Fprintf(&b, " => [%d] %s", r.Status, r.StatusText)
				}
				b.WriteString("\n")
			}
			for _, u := range st.Blocked {
				fmt.Fprintf(&b, "- blocked by the origins guard: %s\n", u)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.Len() == 0 {
		return text("### Result\nNo network requests in this attempt's steps.\n" + fileNote(in.Filename)), nil
	}
	return text("### Result\n" + untrusted + fenced("", b.String()) + fileNote(in.Filename)), nil
}

// fileNote says that a file the agent named was not written; "" when it named none.
func fileNote(name string) string {
	if name == "" {
		return ""
	}
	return "### Observatory harness\n- filename: not written: the result is returned as text, Observatory writes no files for the agent\n"
}

// networkRequest answers with what the attempt's record holds of one request: its line,
// and its headers and bodies when the run records them.
func (s *server) networkRequest(ctx context.Context, in networkRequestArgs) (*mcp.CallToolResult, error) {
	var req *agent.Request
	err := s.look(ctx, func(_ agent.Page, steps []agent.Step) error {
		n := 0
		for _, st := range steps {
			for i := range st.Requests {
				if n++; float64(n) == in.Index {
					r := st.Requests[i]
					req = &r
				}
			}
		}
		if req == nil {
			return fmt.Errorf("no request %g: this attempt's steps recorded %d (see browser_network_requests)", in.Index, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s => [%d] %s\n", req.Method, req.URL, req.Status, req.StatusText)
	headers := func(title string, hs []agent.Header) {
		if in.Part == "" || in.Part == title {
			fmt.Fprintf(&b, "\n%s:\n", title)
			for _, h := range hs {
				fmt.Fprintf(&b, "%s: %s\n", h.Name, h.Value)
			}
		}
	}
	body := func(title string, bd *agent.Body) {
		if in.Part == "" || in.Part == title {
			fmt.Fprintf(&b, "\n%s:\n", title)
			if bd == nil {
				b.WriteString("(not recorded: run with --bodies to record bodies)\n")
				return
			}
			b.WriteString(bd.Text + "\n")
		}
	}
	headers("request-headers", req.RequestHeaders)
	body("request-body", req.RequestBody)
	headers("response-headers", req.ResponseHeaders)
	body("response-body", req.ResponseBody)
	return text("### Result\n" + untrusted + fenced("", b.String()) + fileNote(in.Filename)), nil
}

// find answers with the lines of the page's snapshot that hold text (any case) or match
// regex ("/pattern/flags" for flags).
func (s *server) find(ctx context.Context, in findArgs) (*mcp.CallToolResult, error) {
	var match func(string) bool
	switch {
	case (in.Text == "") == (in.Regex == ""):
		return nil, errors.New("give either text or regex, not both")
	case in.Text != "":
		want := strings.ToLower(in.Text)
		match = func(l string) bool { return strings.Contains(strings.ToLower(l), want) }
	default:
		pat := in.Regex
		if m := regexp.MustCompile(`^/(.*)/([a-z]*)$`).FindStringSubmatch(pat); m != nil {
			pat = m[1]
			if strings.Contains(m[2], "i") {
				pat = "(?i)" + pat
			}
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("regex: %w", err)
		}
		match = re.MatchString
	}
	var b strings.Builder
	err := s.look(ctx, func(page agent.Page, _ []agent.Step) error {
		snap, _, err := snapshotNow(ctx, page)
		if err != nil {
			return err
		}
		s.refs = snapshotRefs(snap)
		for line := range strings.Lines(snap) {
			if match(line) {
				b.WriteString(line)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.Len() == 0 {
		return text("### Result\nNothing in the page's snapshot matches.\n" + fileNote(in.Filename)), nil
	}
	return text("### Result\n" + untrusted + fenced("yaml", b.String()) + fileNote(in.Filename)), nil
}

// intent tells the task and the attempt the agent's next browser call acts in, opening it
// if none is under way, so the start page it gives is the very address that attempt began at.
func (s *server) intent(ctx context.Context, _ noArgs) (*mcp.CallToolResult, error) {
	t := s.opts.Task
	r := intentResult{Intent: t.Intent, Origins: t.Origins, Gate: s.opts.Gate}
	op, err := s.opts.Session.Open(ctx, s.opts.Stopped)
	if err == nil {
		r.Attempt, r.StartURL = op.Slug, op.StartURL
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Task\n%s\n\n", t.Intent)
	if err != nil {
		fmt.Fprintf(&b, "- No attempt can start: %v\n", err)
	} else {
		fmt.Fprintf(&b, "- Attempt %s is open: it began at %s in a fresh browser context, and your browser calls act in it until task_done ends it.\n", r.Attempt, r.StartURL)
	}
	if len(t.Origins) > 0 {
		fmt.Fprintf(&b, "- You may load only: %s\n", strings.Join(t.Origins, ", "))
	}
	if len(r.Gate) > 0 {
		b.WriteString("\n### The completion gate checks, from the app's own state\n")
		for _, g := range r.Gate {
			fmt.Fprintf(&b, "- %s\n", g)
		}
	}
	b.WriteString("\nCall task_done with your claim when you believe the task is done; the gate decides.\n")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}, StructuredContent: r}, nil
}
