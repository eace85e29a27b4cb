package cli

import (
	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/app/desktop"
	"observatory/app/version"
	"observatory/backend/store"
)

// addDesktop makes the bare command open the desktop window.
func addDesktop(root *cobra.Command, env Env, g *globals) {
	var smoke bool
	var endpoints endpointFlags
	root.Flags().BoolVar(&smoke, "smoke", false, "open the window, exit 0 once its UI has reached the backend and the window is wholly on its screen (a self-test)")
	endpoints.register(root.Flags())
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := endpoints.check(); err != nil {
			return err
		}
		return withStore(g, func(st *store.Store, dataDir string) error {
			win := desktop.NewWindow()
			services := app.New(app.Options{Store: st, DataDir: dataDir, Version: version.Get().Version, Transport: "desktop",
				OnReady: win.Ready, Dialogs: win, Remote: endpoints.remote(), PerEndpoint: endpoints.perEndpoint, LabHost: endpoints.labHost, FollowOthers: true})
			warnKillSwitch(g, services)
			pruneAtStart(env.Stderr, services)
			return win.Run(desktop.Options{Services: services, Assets: env.Assets, DataDir: dataDir, Smoke: smoke, Log: env.Stderr})
		})
	}
}
