package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/app/httpapi"
	"observatory/app/version"
	"observatory/backend/labs"
	"observatory/backend/store"
)

func newServeCmd(env Env, g *globals) *cobra.Command {
	var addr string
	var endpoints endpointFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the desktop UI and its services to an ordinary browser",
		Long: `Serves the same UI and the same services as the desktop window over HTTP and a
WebSocket, on loopback. Open the printed address in a browser.

A connection is cut when its client stalls: 10 s to send a request's header, 2 minutes idle
between requests, 30 s without a byte of an upload or download moving (a slow transfer that
keeps moving is never cut).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(g, func(st *store.Store, dataDir string) error {
				listen, err := httpapi.Addr(addr)
				if err != nil {
					return err
				}
				if err := endpoints.check(); err != nil {
					return err
				}
				services := app.New(app.Options{Store: st, DataDir: dataDir, Version: version.Get().Version, Transport: "http",
					Remote: endpoints.remote(), PerEndpoint: endpoints.perEndpoint, LabHost: endpoints.labHost, FollowOthers: true})
				defer services.Shutdown()
				warnKillSwitch(g, services)
				pruneAtStart(env.Stderr, services)
				ln, err := net.Listen("tcp", listen)
				if err != nil {
					return fmt.Errorf("listening on %s: %w", listen, err)
				}
				token := httpapi.NewToken()
				handler := httpapi.New(services, env.Assets, dataDir, token)
				srv := handler.Server(httpapi.DefaultLimits)
				// The address goes to standard output alone, so scripts and tests can read it. It
				// carries the access token: only who can read it can use the server.
				url := fmt.Sprintf("http://%s/?token=%s", ln.Addr(), token)
				fmt.Fprintln(env.Stdout, url)
				fmt.Fprintf(env.Stderr, "serving Observatory on %s (data in %s); Ctrl+C stops\n", url, safe(dataDir))
				fmt.Fprintf(env.Stderr, "labs listen on %s, where the browser is sent\n", safe(cmp.Or(endpoints.labHost, labs.DefaultHost)))
				stopped := make(chan struct{})
				go func() {
					<-cmd.Context().Done()
					stopServing(srv, handler)
					close(stopped)
				}()
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					return err
				}
				<-stopped
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "loopback address to listen on (port 0 picks a free one)")
	endpoints.register(cmd.Flags())
	return cmd
}

// shutdownGrace bounds each of the two stages of stopping the server; together they fit in
// stopGrace, so a stop ends on its own before the process would quit regardless.
const shutdownGrace = 4 * time.Second

// stopServing lets the requests under way finish for shutdownGrace, then closes the
// connections still open (a stalled upload's among them), which ends their handlers' reads,
// and waits up to shutdownGrace more for the handlers holding temporary files in the data
// folder to remove them and return.
func stopServing(srv *http.Server, h *httpapi.Handler) {
	shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if srv.Shutdown(shut) != nil {
		_ = srv.Close()
	}
	drain, cancelDrain := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancelDrain()
	_ = h.Drain(drain)
}
