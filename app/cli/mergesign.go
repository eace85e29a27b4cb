package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/signing"
)

// readShards reads each shard's run file (or bundle) and checks its signature against the
// trust list: a shard whose signature does not match is refused, since its bytes are not
// the ones signed. It returns the shards and, for the merged run's statement, each shard's
// name, run file digest and signer.
func readShards(ctx context.Context, g *globals, paths []string) ([]runfile.Shard, []signing.Shard, error) {
	shards := make([]runfile.Shard, 0, len(paths))
	signed := make([]signing.Shard, 0, len(paths))
	for _, path := range paths {
		p, sig, err := checkSigned(ctx, g, path)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if sig.Status == signing.Mismatch {
			return nil, nil, fmt.Errorf("%s: %s", path, sig.Label())
		}
		f, err := p.Decode()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		name, digest := filepath.Base(path), signing.Digest(p.RunFile)
		shards = append(shards, runfile.Shard{Name: name, File: f, SHA256: digest})
		signed = append(signed, signing.Shard{Name: name, SHA256: digest, Status: sig.Status, Signer: sig.Signer, Fingerprint: sig.Fingerprint})
	}
	return shards, signed, nil
}

// writeMerged writes the merged run to out, recording the shards it was merged from, signed with key when sign is set (or when the
// settings say to sign every export), its statement listing the shards; and lists each
// shard's digest and signer.
func writeMerged(env Env, g *globals, out string, run agent.Run, recorded []runfile.MergedShard, shards []signing.Shard, key string, sign bool) error {
	dir, err := dataDir(g)
	if err != nil {
		return err
	}
	signer, err := app.SignerIn(dir, key, sign)
	if err != nil {
		return err
	}
	f := runfile.New(run, time.Now())
	f.Shards = recorded
	if err := app.WriteSignedRunFile(out, f, signer, shards); err != nil {
		return err
	}
	for _, s := range shards {
		by := signing.Result{Status: s.Status, Signer: s.Signer, Fingerprint: s.Fingerprint}.Label()
		fmt.Fprintf(env.Stderr, "shard %s sha256 %s: %s\n", safe(s.Name), s.SHA256, safe(by))
	}
	if signer != nil {
		fmt.Fprintf(env.Stderr, "signed the merged run with %s (signature in %s)\n", safe(signer.Name), safe(out+app.SignatureSuffix))
	}
	return nil
}
