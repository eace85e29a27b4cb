package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/session"
)

// MaxArgument is the most bytes any one string argument may hold; a longer one is refused
// before anything runs.
const MaxArgument = 64 << 10

// Options are what a server serves: the session its tools drive, and the task it runs.
type Options struct {
	Session *session.Session
	// Stopped is closed once the run has ended: no call waits past it.
	Stopped <-chan struct{}
	Task    agent.Task
	// Gate lists what the completion gate checks, in words, for task_intent.
	Gate []string
	// Version is the program's version, told to clients.
	Version string
	// Opened is the attempt started with the session, whose start page the instructions
	// give; zero when none could start.
	Opened session.Opened
	// Waiting, when given, tells each call that waits for a person's approval so, on the
	// call's progress token (its approvers wrapped by Waiting.Approvals).
	Waiting *Waiting
}

// server is one MCP server's state: the client session that drives it, and the refs of the
// latest snapshot it returned.
type server struct {
	opts Options
	// ownerMu guards owner: the first client session to initialize, the only one whose tool
	// calls run. One client session is one run.
	ownerMu sync.Mutex
	owner   *mcp.ServerSession
	// mu holds one tool call at a time: a ref checked is acted on before anything else runs.
	mu   sync.Mutex
	refs map[string]element
	seq  int
}

// ErrAnotherSession refuses the tool calls of a client session opened while another drives
// the run (over streamable HTTP, a second client or a second connection of the same one).
var ErrAnotherSession = errors.New("another client session is driving this run, and Observatory serves one client at a time: " +
	"its attempts, approvals and claim are that session's alone. Connect once it has ended (observatory mcp then exits: start it again)")

// New returns the MCP server of one session, with every tool registered.
func New(opts Options) *mcp.Server {
	s := &server{opts: opts}
	srv := mcp.NewServer(&mcp.Implementation{Name: "observatory", Title: "Observatory", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions(opts), InitializedHandler: s.watch})
	s.register(srv)
	return srv
}

// watch makes the first client session to initialize the run's own, and ends the run's
// session once that client's MCP session ends (over HTTP, the client deleted it; over
// standard input, the stream closed): the agent has left, so the attempt under way ends
// cancelled and the run finishes. A later session's end changes nothing.
func (s *server) watch(_ context.Context, req *mcp.InitializedRequest) {
	s.ownerMu.Lock()
	owns := s.owner == nil
	if owns {
		s.owner = req.Session
	}
	s.ownerMu.Unlock()
	if !owns {
		return
	}
	go func() {
		_ = req.Session.Wait()
		s.opts.Session.Leave()
	}()
}

// admit refuses a tool call from any client session but the run's own (see watch). A call
// before any session initialized makes its session the run's.
func (s *server) admit(caller *mcp.ServerSession) error {
	s.ownerMu.Lock()
	defer s.ownerMu.Unlock()
	if s.owner == nil {
		s.owner = caller
	}
	if caller != s.owner {
		return ErrAnotherSession
	}
	return nil
}

// def is a tool as register declares it: its name, title and description (Playwright MCP's
// for its tools), whether it only reads, its arguments' enums, and what it does while the
// page keeps a dialog open.
type def struct {
	name, title, desc string
	readOnly          bool
	enums             enums
	modal             modal
}

// tool registers one tool whose handler returns a result and no structured output.
func tool[In any](srv *mcp.Server, s *server, d def, h func(ctx context.Context, in In) (*mcp.CallToolResult, error)) {
	in, err := inputSchema[In](d.enums)
	if err == nil && !d.modal.declared() {
		err = fmt.Errorf("declares no modal state handling (%d)", d.modal)
	}
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", d.name, err)) // a programming error, caught by every test
	}
	t := &mcp.Tool{Name: d.name, Title: d.title, Description: d.desc, InputSchema: in, Annotations: &mcp.ToolAnnotations{Title: d.title, ReadOnlyHint: d.readOnly}}
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		if err := s.admit(req.Session); err != nil {
			return refused(err), nil, nil
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := checkSizes(in); err != nil {
			return refused(err), nil, nil
		}
		if res := s.refuseUnderModal(d.name, d.modal); res != nil {
			return res, nil, nil
		}
		defer s.opts.Waiting.during(ctx, req)()
		res, err := h(ctx, in)
		if err != nil {
			return refused(err), nil, nil
		}
		return res, nil, nil
	})
}

// register adds Playwright MCP's default tools, with its names, descriptions and argument
// shapes (see TestToolsAcceptWhatPlaywrightMCPAccepts), and the task's own.
func (s *server) register(srv *mcp.Server) {
	tool(srv, s, def{"browser_navigate", "Navigate to a URL", "Navigate to a URL", false, nil, refusedUnderModal}, s.navigate)
	tool(srv, s, def{"browser_navigate_back", "Go back", "Go back to the previous page in the history", false, nil, refusedUnderModal}, s.back)
	tool(srv, s, def{"browser_snapshot", "Page snapshot", "Capture accessibility snapshot of the current page, this is better than screenshot", true, nil, refusedUnderModal}, s.snapshot)
	tool(srv, s, def{"browser_click", "Click", "Perform click on a web page", false, clickEnums, refusedUnderModal}, s.click)
	tool(srv, s, def{"browser_type", "Type text", "Type text into editable element", false, nil, refusedUnderModal}, s.typeText)
	tool(srv, s, def{"browser_fill_form", "Fill form", "Fill multiple form fields", false, fillEnums, refusedUnderModal}, s.fillForm)
	tool(srv, s, def{"browser_select_option", "Select option", "Select an option in a dropdown", false, nil, refusedUnderModal}, s.selectOption)
	tool(srv, s, def{"browser_press_key", "Press a key", "Press a key on the keyboard", false, nil, refusedUnderModal}, s.pressKey)
	tool(srv, s, def{"browser_hover", "Hover mouse", "Hover over element on page", false, nil, refusedUnderModal}, s.hover)
	tool(srv, s, def{"browser_drag", "Drag mouse", "Perform drag and drop between two elements", false, nil, refusedUnderModal}, s.drag)
	tool(srv, s, def{"browser_drop", "Drop files or data", "Drop files or MIME-typed data onto an element", false, nil, refusedUnderModal}, s.drop)
	tool(srv, s, def{"browser_wait_for", "Wait for", "Wait for text to appear or disappear or a specified time to pass", true, nil, refusedUnderModal}, s.waitFor)
	tool(srv, s, def{"browser_take_screenshot", "Take a screenshot", "Take a screenshot of the current page. You can't perform actions based on the screenshot, use browser_snapshot for actions.", true, screenshotEnums, refusedUnderModal}, s.screenshot)
	tool(srv, s, def{"browser_file_upload", "Upload files", "Upload one or multiple files (from the task's uploads folder)", false, nil, refusedUnderModal}, s.upload)
	tool(srv, s, def{"browser_handle_dialog", "Handle a dialog", "Handle a dialog", false, nil, handlesModal}, s.handleDialog)
	tool(srv, s, def{"browser_evaluate", "Evaluate JavaScript", "Evaluate JavaScript expression on page or element", false, nil, refusedUnderModal}, s.evaluate)
	tool(srv, s, def{"browser_run_code_unsafe", "Run Playwright code (unsafe)", "Run a Playwright code snippet: not offered by Observatory, use browser_evaluate", false, nil, refusedUnderModal}, s.runCode)
	tool(srv, s, def{"browser_resize", "Resize browser window", "Resize the browser window", false, nil, refusedUnderModal}, s.resize)
	tool(srv, s, def{"browser_emulate_media", "Emulate media", "Emulate media features such as prefers-color-scheme", false, emulateEnums, refusedUnderModal}, s.emulate)
	tool(srv, s, def{"browser_close", "Close browser", "Close the page", false, nil, refusedUnderModal}, s.closePage)
	tool(srv, s, def{"browser_tabs", "Manage tabs", "List, create, close, or select a browser tab", false, tabsEnums, refusedUnderModal}, s.tabs)
	tool(srv, s, def{"browser_find", "Find in snapshot", "Search the page's accessibility snapshot for text or a regular expression", true, nil, refusedUnderModal}, s.find)
	tool(srv, s, def{"browser_console_messages", "Get console messages", "Returns all console messages", true, consoleEnums, refusedUnderModal}, s.console)
	tool(srv, s, def{"browser_network_requests", "List network requests", "Returns all network requests since loading the page", true, nil, refusedUnderModal}, s.network)
	tool(srv, s, def{"browser_network_request", "Network request details", "Returns what the record holds of one network request, by its index in browser_network_requests", true, requestEnums, refusedUnderModal}, s.networkRequest)
	tool(srv, s, def{"task_intent", "Task intent", "The task you are asked to do: the request word for word, the start page, the origins you may load and what the completion gate will check", true, nil, besideModal}, s.intent)
	mcp.AddTool(srv, &mcp.Tool{Name: "task_done", Title: "Task done",
		Description: "Say you are done (or give up, with done: false). Your claim is recorded beside what the completion gate finds from the app's own state; the gate decides, and the attempt ends. Your next browser call starts the next attempt.",
		Annotations: &mcp.ToolAnnotations{Title: "Task done"}},
		func(ctx context.Context, req *mcp.CallToolRequest, in doneArgs) (*mcp.CallToolResult, doneResult, error) {
			if err := s.admit(req.Session); err != nil {
				return refused(err), doneResult{}, nil
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if err := checkSizes(in); err != nil {
				return refused(err), doneResult{}, nil
			}
			return s.done(ctx, in)
		})
}

// refused is a tool result that says why nothing was done, as an error the agent reads in
// Playwright MCP's shape; the page is as it was.
func refused(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "### Error\nRefused, nothing was done: " + err.Error() + "\n"}}}
}

// checkSizes refuses an argument longer than MaxArgument bytes, or with more than 100 items.
func checkSizes(in any) error {
	check := func(name, v string) error {
		if len(v) > MaxArgument {
			return fmt.Errorf("%s is %d bytes, over the %d KiB an argument may hold", name, len(v), MaxArgument>>10)
		}
		return nil
	}
	var strs []struct{ name, v string }
	add := func(name string, vs ...string) {
		for _, v := range vs {
			strs = append(strs, struct{ name, v string }{name, v})
		}
	}
	lists := 0
	switch a := in.(type) {
	case navigateArgs:
		add("url", a.URL)
	case clickArgs:
		add("target", a.Target, a.Ref, a.Element)
	case typeArgs:
		add("text", a.Text)
		add("target", a.Target, a.Ref, a.Element)
	case fillFormArgs:
		lists = len(a.Fields)
		for _, f := range a.Fields {
			add("field", f.Name, f.Target, f.Ref, f.Value, f.Type, f.Element)
		}
	case evaluateArgs:
		add("function", a.Function)
		add("target", a.Target, a.Ref, a.Element)
	case findArgs:
		add("text", a.Text, a.Regex)
	case snapshotArgs:
		add("target", a.Target, a.Ref)
	case selectArgs:
		lists = len(a.Values)
		add("values", a.Values...)
		add("target", a.Target, a.Ref, a.Element)
	case pressArgs:
		add("key", a.Key)
	case hoverArgs:
		add("target", a.Target, a.Ref, a.Element)
	case dragArgs:
		add("target", a.StartTarget, a.StartRef, a.StartElement, a.EndTarget, a.EndRef, a.EndElement)
	case tabsArgs:
		add("url", a.URL)
	case dialogArgs:
		add("promptText", a.PromptText)
	case waitArgs:
		add("text", a.Text, a.TextGone)
	case uploadArgs:
		lists = len(a.Paths)
		add("paths", a.Paths...)
	case networkArgs:
		add("filter", a.Filter)
	case doneArgs:
		add("claim", a.Claim)
		add("answer", a.Answer)
	}
	if lists > 100 {
		return fmt.Errorf("%d items in one call; give at most 100", lists)
	}
	for _, s := range strs {
		if err := check(s.name, s.v); err != nil {
			return err
		}
	}
	return nil
}

// look reads the page of the attempt under way, starting one when none is.
func (s *server) look(ctx context.Context, fn func(agent.Page, []agent.Step) error) error {
	return s.opts.Session.Look(ctx, s.opts.Stopped, fn)
}

// snapshotNow is the page's accessibility snapshot as the agent is shown it (stableRefs),
// and the browser's own ref of each ref shown.
func snapshotNow(ctx context.Context, page agent.Page) (string, map[string]string, error) {
	sn, ok := page.(snapshotter)
	if !ok {
		return "", nil, errors.New("this browser cannot take accessibility snapshots")
	}
	snap, err := sn.AriaSnapshot(ctx)
	if err != nil {
		return "", nil, err
	}
	shown, real := stableRefs(snap)
	return shown, real, nil
}

// snapshotter, screenshotter and tabLister are the browser page's reads for agents
// (backend/browser's Page implements them).
type snapshotter interface {
	AriaSnapshot(ctx context.Context) (string, error)
}

type screenshotter interface {
	Screenshot(ctx context.Context) ([]byte, error)
}

// target turns a tool's target (or its older spelling, ref) into the harness's target:
// a ref of the latest snapshot, revalidated on the page now, or a selector.
func (s *server) target(ctx context.Context, target, ref string) (agent.Target, error) {
	if target == "" {
		target = ref
	}
	target = strings.TrimSpace(target)
	if target == "" {
		return agent.Target{}, errors.New("give target: a ref from the latest snapshot (such as e5) or a unique selector")
	}
	if !refPattern.MatchString(target) {
		return agent.Target{CSS: target}, nil
	}
	var t agent.Target
	err := s.look(ctx, func(page agent.Page, _ []agent.Step) error {
		now, real, err := snapshotNow(ctx, page)
		if err != nil {
			return err
		}
		var frames []string
		if t, frames, err = resolveRef(target, s.refs, now, real); err != nil || len(frames) == 0 {
			return err
		}
		t.Frames, err = nameFrames(ctx, page, frames)
		return err
	})
	return t, err
}

// frameNamer names the iframe a ref of the page's latest snapshot is, as a target's frame
// path names it (backend/browser's Page implements it).
type frameNamer interface {
	FrameOf(ctx context.Context, ref string) (agent.FrameRef, error)
}

// nameFrames is the frame path of the iframes refs are, outermost first.
func nameFrames(ctx context.Context, page agent.Page, refs []string) (agent.FramePath, error) {
	namer, ok := page.(frameNamer)
	if !ok {
		return agent.FramePath{}, errors.New("this browser cannot name the frame of an element inside an iframe: name the element by a selector")
	}
	list := make([]agent.FrameRef, len(refs))
	for i, ref := range refs {
		f, err := namer.FrameOf(ctx, ref)
		if err != nil {
			return agent.FramePath{}, fmt.Errorf("the iframe %s: %w; take a new snapshot", ref, err)
		}
		list[i] = f
	}
	return agent.FramesOf(list)
}

// proposal is one action of the agent's as the executor takes it.
func (s *server) proposal(kind agent.ActionKind, t agent.Target, value, description string) agent.Proposal {
	s.seq++
	return agent.Proposal{Action: agent.Action{ID: fmt.Sprintf("mcp-%d", s.seq), Description: description, Kind: kind, Target: t, Value: value}}
}

// describe is a step's description: the agent's words for the element, else the target.
func describe(verb, element string, t agent.Target) string {
	if element != "" {
		return verb + " " + element
	}
	return verb + " " + t.String()
}

// act runs proposals one after another, stopping at the first that did not run as asked or
// ended the attempt, and answers in Playwright MCP's shape: the error if any, the code that
// ran, the page as it is afterwards, and the harness's own lines in a section of their own.
// A failed or refused action is a tool error; the page stays as it was.
func (s *server) act(ctx context.Context, props ...agent.Proposal) (*mcp.CallToolResult, error) {
	var code, harness, output strings.Builder
	var errs []string
	ended := false
	for _, p := range props {
		r, err := s.opts.Session.Act(ctx, s.opts.Stopped, p)
		if err != nil {
			return nil, err
		}
		why := writeStep(&harness, p, r)
		if why == "" && r.Step != nil {
			code.WriteString(playwrightCode(r.Step.Action) + "\n")
			output.WriteString(r.Step.Output)
		}
		if why != "" {
			errs = append(errs, why)
		}
		if r.Ended != nil {
			writeEnded(&harness, *r.Ended)
			ended = true
			break
		}
		if why != "" {
			break
		}
	}
	var b strings.Builder
	if len(errs) > 0 {
		fmt.Fprintf(&b, "### Error\n%s\n", strings.Join(errs, "\n"))
	}
	if output.Len() > 0 {
		b.WriteString("### Result\n" + untrusted + fenced("json", output.String()))
	}
	if code.Len() > 0 {
		b.WriteString("### Ran Playwright code\n" + fenced("js", code.String()))
	}
	if !ended {
		s.writePage(ctx, &b)
	}
	b.WriteString("### Observatory harness\n" + harness.String())
	return &mcp.CallToolResult{IsError: len(errs) > 0, Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, nil
}

// writePage adds the page as it is now, in Playwright MCP's sections (its URL and title,
// and its snapshot, fenced as the page's data, or the dialog it keeps open), and keeps the snapshot's refs as the latest
// the agent has seen.
func (s *server) writePage(ctx context.Context, b *strings.Builder) {
	if d, open := s.pendingDialog(); open { // the page's script waits on the dialog
		b.WriteString(modalState(d))
		return
	}
	_ = s.opts.Session.Peek(func(page agent.Page, _ []agent.Step) error {
		snap, _, err := snapshotNow(ctx, page)
		if err != nil {
			fmt.Fprintf(b, "### Page\nThe page could not be read: %v\n", err)
			return nil
		}
		s.refs = snapshotRefs(snap)
		writePageSections(ctx, b, page, snap)
		return nil
	})
}

// writePageSections writes the page's "### Page" and "### Snapshot" sections, after
// "### Open tabs" when the attempt has more than one.
func writePageSections(ctx context.Context, b *strings.Builder, page agent.Page, snap string) {
	var tabs []browser.Tab
	if tl, ok := page.(tabLister); ok {
		tabs, _ = tl.Tabs(ctx) // unread, the page's address is left out
	}
	if len(tabs) > 1 {
		b.WriteString("### Open tabs\n" + untrusted + tabLines(tabs))
	}
	b.WriteString("### Page\n")
	for _, t := range tabs {
		if t.Current {
			fmt.Fprintf(b, "- Page URL: %s\n- Page Title: %s\n", t.URL, oneLine(t.Title))
		}
	}
	b.WriteString("### Snapshot\n" + untrusted + fenced("yaml", snap))
}

// oneLine is page text on one line, so that it cannot start a section of its own.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func (s *server) navigate(ctx context.Context, in navigateArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(in.URL) == "" {
		return nil, errors.New("give url")
	}
	return s.act(ctx, s.proposal(agent.ActNavigate, agent.Target{}, in.URL, "Navigate to "+in.URL))
}

// back loads the page the attempt was on before the current one: the last address its
// steps saw that differs from where it is now.
func (s *server) back(ctx context.Context, _ noArgs) (*mcp.CallToolResult, error) {
	var prev string
	err := s.look(ctx, func(_ agent.Page, steps []agent.Step) error {
		var urls []string
		for _, st := range steps {
			for _, u := range []string{st.Before.URL, st.After.URL} {
				if u != "" && (len(urls) == 0 || urls[len(urls)-1] != u) {
					urls = append(urls, u)
				}
			}
		}
		if len(urls) < 2 {
			return errors.New("there is no previous page in this attempt's history")
		}
		prev = urls[len(urls)-2]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.act(ctx, s.proposal(agent.ActNavigate, agent.Target{}, prev, "Go back to "+prev))
}

// snapshot answers with the page's snapshot: the subtree of target when given, depth
// levels deep when given; filename and boxes are answered in the reply, not honoured.
func (s *server) snapshot(ctx context.Context, in snapshotArgs) (*mcp.CallToolResult, error) {
	var b, notes strings.Builder
	if in.Filename != "" {
		notes.WriteString("- filename: not written: Observatory returns the snapshot and writes no files for the agent\n")
	}
	if in.Boxes {
		notes.WriteString("- boxes: not given: the snapshot has no bounding boxes here\n")
	}
	target := strings.TrimSpace(cmp.Or(in.Target, in.Ref))
	if target != "" && !refPattern.MatchString(target) {
		fmt.Fprintf(&notes, "- target: %q is a selector, not a ref: the whole page's snapshot is given\n", target)
		target = ""
	}
	err := s.look(ctx, func(page agent.Page, _ []agent.Step) error {
		snap, _, err := snapshotNow(ctx, page)
		if err != nil {
			return err
		}
		s.refs = snapshotRefs(snap)
		if target != "" {
			sub, ok := subtree(snap, target)
			if !ok {
				return fmt.Errorf("ref %s is not in the page's snapshot now: take a snapshot without target", target)
			}
			snap = sub
		}
		if in.Depth != nil {
			snap = limitDepth(snap, int(*in.Depth))
		}
		writePageSections(ctx, &b, page, snap)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if notes.Len() > 0 {
		b.WriteString("### Observatory harness\n" + notes.String())
	}
	return text(b.String()), nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func (s *server) click(ctx context.Context, in clickArgs) (*mcp.CallToolResult, error) {
	switch {
	case in.DoubleClick:
		return nil, errors.New("a double click is not supported: click once per step")
	case in.Button != "" && in.Button != "left":
		return nil, fmt.Errorf("button %q is not supported: only the left button clicks", in.Button)
	case len(in.Modifiers) > 0:
		return nil, errors.New("modifier keys are not supported with a click")
	}
	t, err := s.target(ctx, in.Target, in.Ref)
	if err != nil {
		return nil, err
	}
	return s.act(ctx, s.proposal(agent.ActClick, t, "", describe("Click", in.Element, t)))
}

func (s *server) typeText(ctx context.Context, in typeArgs) (*mcp.CallToolResult, error) {
	t, err := s.target(ctx, in.Target, in.Ref)
	if err != nil {
		return nil, err
	}
	props := []agent.Proposal{s.proposal(agent.ActFill, t, in.Text, describe("Type into", in.Element, t))}
	if in.Submit {
		props = append(props, s.proposal(agent.ActPress, t, "Enter", describe("Submit (press Enter in)", in.Element, t)))
	}
	return s.act(ctx, props...)
}

// fieldKinds are the actions a form field's type and value become.
func fieldAction(f formField) (agent.ActionKind, string, error) {
	switch f.Type {
	case "textbox", "slider":
		return agent.ActFill, f.Value, nil
	case "combobox":
		return agent.ActSelect, f.Value, nil
	case "radio":
		return agent.ActCheck, "", nil
	case "checkbox":
		switch f.Value {
		case "true":
			return agent.ActCheck, "", nil
		case "false":
			return agent.ActUncheck, "", nil
		}
		return "", "", fmt.Errorf("field %q: a checkbox's value is true or false, not %q", f.Name, f.Value)
	}
	return "", "", fmt.Errorf("field %q: type %q is none of textbox, checkbox, radio, combobox, slider", f.Name, f.Type)
}

func (s *server) fillForm(ctx context.Context, in fillFormArgs) (*mcp.CallToolResult, error) {
	if len(in.Fields) == 0 {
		return nil, errors.New("give fields: at least one field to fill")
	}
	var props []agent.Proposal
	for _, f := range in.Fields {
		kind, value, err := fieldAction(f)
		if err != nil {
			return nil, err
		}
		t, err := s.target(ctx, f.Target, f.Ref)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		props = append(props, s.proposal(kind, t, value, describe("Fill form field", cmp.Or(f.Element, f.Name), t)))
	}
	return s.act(ctx, props...)
}

func (s *server) selectOption(ctx context.Context, in selectArgs) (*mcp.CallToolResult, error) {
	if len(in.Values) != 1 {
		return nil, fmt.Errorf("give one value to select (got %d): one selection is one step", len(in.Values))
	}
	t, err := s.target(ctx, in.Target, in.Ref)
	if err != nil {
		return nil, err
	}
	return s.act(ctx, s.proposal(agent.ActSelect, t, in.Values[0], describe("Select "+fmt.Sprintf("%q", in.Values[0])+" in", in.Element, t)))
}

func (s *server) pressKey(ctx context.Context, in pressArgs) (*mcp.CallToolResult, error) {
	if in.Key == "" {
		return nil, errors.New("give key")
	}
	return s.act(ctx, s.proposal(agent.ActPress, agent.Target{}, in.Key, "Press "+in.Key))
}

func (s *server) hover(ctx context.Context, in hoverArgs) (*mcp.CallToolResult, error) {
	t, err := s.target(ctx, in.Target, in.Ref)
	if err != nil {
		return nil, err
	}
	return s.act(ctx, s.proposal(agent.ActHover, t, "", describe("Hover over", in.Element, t)))
}

// evaluate runs the agent's function on the page, or on the element it names, as a step
// through the harness: at least a mutation, admitted as the task's safeguards.scripts says
// (by default once the user approves it), recorded with its code.
func (s *server) evaluate(ctx context.Context, in evaluateArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(in.Function) == "" {
		return nil, errors.New("give function: () => { /* code */ }, or (element) => { /* code */ } with target")
	}
	var t agent.Target
	if in.Target != "" || in.Ref != "" {
		var err error
		if t, err = s.target(ctx, in.Target, in.Ref); err != nil {
			return nil, err
		}
	}
	desc := "Evaluate JavaScript " + in.Function
	if in.Element != "" {
		desc = "Evaluate JavaScript on " + in.Element + ": " + in.Function
	}
	res, err := s.act(ctx, s.proposal(agent.ActEvaluate, t, in.Function, desc))
	if err == nil && in.Filename != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: fileNote(in.Filename)})
	}
	return res, err
}

func (s *server) upload(ctx context.Context, in uploadArgs) (*mcp.CallToolResult, error) {
	switch len(in.Paths) {
	case 0: // Playwright MCP cancels its file chooser; there is none to cancel
		return noModalState("browser_file_upload"), nil
	case 1:
	default:
		return nil, fmt.Errorf("give one path to upload (got %d): one file is one step", len(in.Paths))
	}
	name := in.Paths[0]
	if root := s.opts.Task.Uploads; root != "" && filepath.IsAbs(name) {
		if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
	}
	t := agent.Target{CSS: "input[type=file]"}
	return s.act(ctx, s.proposal(agent.ActUpload, t, name, "Upload "+name))
}
