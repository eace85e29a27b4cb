package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/app/httpapi"
	"observatory/app/version"
	"observatory/backend/agent"
	"observatory/backend/mcpserver"
	"observatory/backend/runner"
	"observatory/backend/session"
)

// leaveGrace is how long a session's run has, once the agent has left (Ctrl+C), to finish
// the step under way before it is cancelled.
const leaveGrace = 5 * time.Second

type mcpFlags struct {
	lab, export, browserPath string
	attempts                 []string
	headed                   bool
	media                    mediaFlags
	approve, http            string
	endpoints                endpointFlags
	overrides                overrideFlags
	// trust is what the task file may reach; standard input is the agent's, so nothing is
	// asked there: a variable not allowed by flag or settings is refused.
	trust trustFlags
}

func newMCPCmd(env Env, g *globals) *cobra.Command {
	f := &mcpFlags{}
	cmd := &cobra.Command{
		Use:   "mcp [TASK-FILE]",
		Short: "Serve a task's browser to your own agent over MCP, with the harness and the completion gate",
		Long: `Serves a task to an agent over the Model Context Protocol (standard input and output, or
streamable HTTP with --http) with Playwright MCP's browser tools, so an agent prompted for
Playwright MCP drives Observatory's browser unchanged, plus task_intent and task_done. Every
action goes through the harness (classification, admission, review, your approval) and is
recorded as a step; task_done records the agent's claim and the completion gate decides.
The agent's first browser call (or task_intent) starts an attempt, task_done (or a budget,
or the time limit) ends it, and its next call starts the next: the --attempt list in order,
else the task's attempts, then the last one again. One client session is one run: it ends
when the client disconnects (closes standard input, or over HTTP ends its MCP session) or on
Ctrl+C, lands in the history like any run, and the command exits. See docs/mcp.md.`,
		Example: `  observatory mcp backend/labs/booking/task.yaml --attempt notice-nothing-saved
  observatory mcp --lab booking --http 127.0.0.1:8931`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return serveMCP(cmd, env, g, f, args) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.lab, "lab", "booking", "the lab whose built-in task to serve when no task file is given")
	fs.StringArrayVar(&f.attempts, "attempt", nil, "the attempts the session runs, in order (repeatable); default the task's, then the last one again")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on this loopback address (path /mcp) instead of standard input and output")
	fs.BoolVar(&f.headed, "headed", false, "show the browser window")
	fs.StringVar(&f.export, "export", "", "also write the run file here when the session ends (a .zip: a bundle with the media)")
	fs.StringVar(&f.browserPath, "browser", "", "the browser executable (as for run)")
	f.media.register(fs)
	fs.StringVar(&f.approve, "approve", "", "how irreversible actions that need approval are answered: ask (this terminal, and the desktop or serve open on the data folder: the first answer counts), deny, or hold; by default ask where someone watches, else hold; never by the agent")
	f.endpoints.register(fs)
	f.overrides.register(fs)
	f.trust.register(fs)
	return cmd
}

func serveMCP(cmd *cobra.Command, env Env, g *globals, f *mcpFlags, args []string) error {
	src, err := taskSource(g, &runFlags{lab: f.lab, trust: f.trust}, args)
	if err != nil {
		return err
	}
	if f.http != "" {
		if f.http, err = httpapi.Addr(f.http); err != nil {
			return err
		}
	}
	in, out, asker := mcpStreams(env, f.http != "")
	var sess *session.Session
	attemptBudgets, runBudgets, err := f.overrides.budgets()
	if err != nil {
		return err
	}
	override := f.overrides.override(cmd.Flags())
	override.Budgets = attemptBudgets
	specs, err := runner.Select(src.Suite, f.attempts, 1)
	if err != nil {
		return err
	}
	if sess, err = session.New(specs, agent.ClaimMCP); err != nil {
		return err
	}
	st, dataDir, err := openStore(g)
	if err != nil {
		return err
	}
	defer st.Close()
	id := runner.NewRunID(time.Now())
	host := offer(env.Stderr, dataDir, "observatory mcp", id, src.Suite.Task().Name)
	defer host.Close()
	if f.http == "" {
		host.RefuseClient() // over standard input our parent is the MCP client: the agent
	}
	approver, err := approverFor(f.approve, asker, host)
	if err != nil {
		return err
	}
	waiting := &mcpserver.Waiting{} // a click held for a person's answer keeps its client waiting
	approver = waiting.Approvals(approver)
	prep, err := app.Prepare(app.RunRequest{ID: id, Task: src, Attempts: f.attempts, Planner: sess.Planner, Sequence: sess,
		Override: override, Budgets: runBudgets, Params: f.overrides.params(cmd.Flags()),
		Remote: f.endpoints.remote(), PerEndpoint: f.endpoints.perEndpoint, LabHost: f.endpoints.labHost,
		Launch: app.LaunchChromium(f.headed, f.browserPath), MediaRoot: app.MediaRoot(dataDir),
		Media:    f.media.media(),
		Approver: approver, Recorder: st, Emit: offered(progressPrinter(env.Stderr), host), Export: f.export})
	if err != nil {
		return err
	}
	task := src.Suite.Task()

	// The run outlives Ctrl+C by a moment: the agent leaves first, so the attempt under way
	// ends cancelled and the run finishes; only a run that does not end then is cancelled.
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(cmd.Context()))
	defer cancel(nil)
	stopped := make(chan struct{})
	var run agent.Run
	var runErr error
	go func() {
		defer close(stopped)
		run, runErr = prep.Runner.Run(ctx, prep.ID, prep.Options)
	}()
	go func() {
		select {
		case <-cmd.Context().Done():
		case <-stopped:
			return
		}
		sess.Leave()
		select {
		case <-stopped:
		case <-time.After(leaveGrace):
			cancel(context.Canceled)
		}
	}()
	unwatch := watchKillSwitch(g, dataDir, func() {
		cancel(agent.ErrStopped)
		<-stopped
	})
	// The first attempt starts with the session (a lab's app, the browser at the start page),
	// so the instructions a client reads at initialize give its real start address.
	opened, err := sess.Open(ctx, stopped)
	if err != nil {
		fmt.Fprintf(env.Stderr, "the first attempt could not start: %s\n", safe(err.Error()))
	}
	srv := mcpserver.New(mcpserver.Options{Session: sess, Stopped: stopped, Task: task,
		Gate: gateWords(src.Suite), Version: version.Get().Version, Opened: opened, Waiting: waiting})
	fmt.Fprintf(env.Stderr, "run %s: serving task %s over MCP; attempt %s is open at %s\n", prep.ID, safe(task.Name), safe(opened.Slug), safe(opened.StartURL))
	serveCtx, stopServing := context.WithCancel(cmd.Context())
	go func() {
		select {
		case <-stopped: // the run ended (a run budget, an error): no call can be served
		case <-serveCtx.Done():
		}
		stopServing()
	}()
	if in != nil {
		in = &hangUp{ReadCloser: in, leave: sess.Leave}
	}
	serveErr := serveTransport(serveCtx, env, srv, f.http, in, out)
	stopServing()
	sess.Leave()
	<-stopped
	unwatch()
	if runErr != nil {
		return runErr
	}
	if serveErr != nil && !errors.Is(serveErr, context.Canceled) {
		fmt.Fprintf(env.Stderr, "the MCP connection ended: %s\n", safe(serveErr.Error()))
	}
	report := env
	report.Stdout = env.Stderr // standard output belongs to the MCP connection
	if f.export != "" {
		if err := exportFile(report, app.NewTransfer(st, dataDir), run.ID, f.export, "", false); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stderr, "run %s ended %s with %d attempts\n", run.ID, run.Status, len(run.Attempts))
	if len(run.Attempts) > 0 {
		printTable(env.Stderr, run.Attempts)
		fmt.Fprintln(env.Stderr)
		printReasons(env.Stderr, run.Attempts)
	}
	return nil
}

// mcpStreams are the MCP connection's streams over standard input and output, and the
// environment approvals are asked in: on standard input when it is free (with --http),
// else on the controlling terminal if there is one, never on the agent's connection.
func mcpStreams(env Env, overHTTP bool) (io.ReadCloser, io.WriteCloser, Env) {
	asker := env
	stdin := env.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	if overHTTP {
		return nil, nil, asker
	}
	asker.Stdin = nil
	if tty, err := os.Open("/dev/tty"); err == nil {
		asker.Stdin = tty
	}
	return io.NopCloser(stdin), nopWriteCloser{env.Stdout}, asker
}

// hangUp is a client's end of standard input: once it reads the end (the client exited or
// closed its pipe), the agent has left, whatever its calls still wait on.
type hangUp struct {
	io.ReadCloser
	once  sync.Once
	leave func()
}

func (h *hangUp) Read(p []byte) (int, error) {
	n, err := h.ReadCloser.Read(p)
	if err != nil {
		h.once.Do(h.leave)
	}
	return n, err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// serveTransport serves srv until ctx ends, or, on standard input, until the client
// disconnects.
func serveTransport(ctx context.Context, env Env, srv *mcp.Server, addr string, in io.ReadCloser, out io.WriteCloser) error {
	if addr == "" {
		return srv.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", httpapi.LocalOnly(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	url := fmt.Sprintf("http://%s/mcp", ln.Addr())
	fmt.Fprintln(env.Stdout, url)
	fmt.Fprintf(env.Stderr, "serving MCP on %s; the run ends when the client ends its session, or on Ctrl+C\n", url)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// gateWords are what the task's completion gate checks, in its labels, for task_intent: the
// conditions its judge names when it has nothing to judge yet.
func gateWords(j agent.Judge) []string {
	v, err := j.Judge(agent.Evidence{})
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range v.Gate.Conditions {
		out = append(out, c.Label)
	}
	return out
}
