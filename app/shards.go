package app

import (
	"fmt"
	"strings"
	"time"

	"observatory/app/version"
	"observatory/backend/runfile"
)

// ExportShard writes stored run id, shard K of N of a run, to path as a run file that records
// the shard (index K-1 of N) and this build's version, for merge to check. It writes through a
// temporary file, so a retried shard replaces its file whole; signed, its signature beside it,
// when the settings say to sign every export (signedBy names the key). A shard is a run file,
// never a bundle: the merge reads run files.
func (t *Transfer) ExportShard(id, path string, sh Shard) (signedBy string, err error) {
	if strings.HasSuffix(path, ".zip") {
		return "", fmt.Errorf("--export %s: a shard is exported as a run file (.json), which merge reads, not as a bundle", path)
	}
	signer, err := signerFor(t.keys, t.settings, "", false)
	if err != nil {
		return "", err
	}
	if signer != nil {
		signedBy = signer.Name
	}
	run, err := t.store.Get(id)
	if err != nil {
		return "", err
	}
	f := runfile.New(run, time.Now())
	f.Shard = &runfile.ShardOf{Index: sh.K - 1, Total: sh.N, Version: version.Get().Version}
	return signedBy, WriteSignedRunFile(path, f, signer, nil)
}
