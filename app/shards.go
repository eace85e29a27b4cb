package app

import (
	"fmt"
	"io"
	"strings"
	"time"

	"observatory/app/version"
	"observatory/backend/agent"
	"observatory/backend/runfile"
)

// ExportShard writes stored run id, shard K of N of a run, to path as a run file that records
// the shard (index K-1 of N) and this build's version, for merge to check. It writes through a
// temporary file, so a retried shard replaces its file whole. A shard is a run file, never a
// bundle: the merge reads run files.
func (t *Transfer) ExportShard(id, path string, sh Shard) error {
	if strings.HasSuffix(path, ".zip") {
		return fmt.Errorf("--export %s: a shard is exported as a run file (.json), which merge reads, not as a bundle", path)
	}
	run, err := t.store.Get(id)
	if err != nil {
		return err
	}
	f := runfile.New(run, time.Now())
	f.Shard = &runfile.ShardOf{Index: sh.K - 1, Total: sh.N, Version: version.Get().Version}
	return writeAtomically(path, func(w io.Writer) error { return runfile.EncodeFile(w, f) })
}

// WriteMergedRunFile writes run, merged from shards, as a run file at path that records each
// shard's name, index and digest; atomically.
func WriteMergedRunFile(path string, run agent.Run, shards []runfile.MergedShard) error {
	f := runfile.New(run, time.Now())
	f.Shards = shards
	return writeAtomically(path, func(w io.Writer) error { return runfile.EncodeFile(w, f) })
}
