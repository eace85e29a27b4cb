package cli

import (
	"context"
	"fmt"

	"observatory/app"
	"observatory/backend/signing"
)

// checkSigned reads the run file or bundle at path and checks its signature against the
// data folder's trust list.
func checkSigned(ctx context.Context, g *globals, path string) (app.Presented, signing.Result, error) {
	dir, err := dataDir(g)
	if err != nil {
		return app.Presented{}, signing.Result{}, err
	}
	trust, err := app.SigningKeysIn(dir).Trusted()
	if err != nil {
		return app.Presented{}, signing.Result{}, err
	}
	p, err := app.ReadPresented(ctx, path)
	if err != nil {
		return app.Presented{}, signing.Result{}, err
	}
	return p, p.Check(trust), nil
}

// printSignature says what the signature check of the file at path found, and for a key
// not trusted here, how to trust it.
func printSignature(env Env, path string, r signing.Result) {
	fmt.Fprintf(env.Stderr, "%s: %s\n", safe(path), safe(r.Label()))
	if r.Status == signing.Untrusted {
		fmt.Fprintf(env.Stderr, "  %s\n", safe(app.TrustHint(r)))
	}
}
