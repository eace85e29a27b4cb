package runfile

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// indexed is shardOf recording index i of total, run by version.
func indexed(name string, i, total int, version string, slugs ...string) Shard {
	sh := shardOf(name, slugs...)
	sh.File.Shard = &ShardOf{Index: i, Total: total, Version: version}
	sh.SHA256 = "digest of " + name
	return sh
}

// TestCheckShardsRefusesByName checks each refusal names the shard: a missing index, an index
// twice, another total, another version, a file with no index among files with one. A whole
// set is recorded in index order, and files from before indexes were recorded as index -1.
func TestCheckShardsRefusesByName(t *testing.T) {
	a, b := indexed("s0.json", 0, 2, "1.0.0", "saves-normally"), indexed("s1.json", 1, 2, "1.0.0", "wrong-room")
	for _, tt := range []struct {
		name   string
		shards []Shard
		says   string
	}{
		{"missing", []Shard{b}, "shard index 0 of 2 (0-based) is missing: 1 of 2 shards given"},
		{"twice", []Shard{a, indexed("again.json", 0, 2, "1.0.0", "wrong-room")}, "shard index 0 is in both s0.json and again.json"},
		{"another total", []Shard{a, indexed("s1of3.json", 1, 3, "1.0.0", "wrong-room")}, "s1of3.json is shard 1 of 3, but s0.json is one of 2"},
		{"another version", []Shard{a, indexed("new.json", 1, 2, "1.1.0", "wrong-room")}, "new.json was run by Observatory 1.1.0, but s0.json by 1.0.0"},
		{"no index", []Shard{a, shardOf("old.json", "wrong-room")}, "old.json records no shard index, but s0.json does"},
	} {
		if _, err := CheckShards(tt.shards); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.says)
		}
	}
	got, err := CheckShards([]Shard{b, a})
	if err != nil || len(got) != 2 || got[0].Name != "s0.json" || got[1].Index != 1 || got[1].SHA256 != "digest of s1.json" {
		t.Errorf("a whole set: %+v, %v: want both in index order with their digests", got, err)
	}
	old, err := CheckShards([]Shard{shardOf("x.json", "saves-normally")})
	if err != nil || len(old) != 1 || old[0].Index != -1 {
		t.Errorf("files with no index: %+v, %v: want index -1", old, err)
	}
}

// TestShardFieldsRoundTripAndMatchTheSchema writes a shard's file and a merged file: both
// read back with their shard records, validate against docs/runfile.schema.json, and a bad
// index or digest is refused at its path.
func TestShardFieldsRoundTripAndMatchTheSchema(t *testing.T) {
	sch := compileSchema(t, schemaPath)
	shard := goodFile()
	shard.Shard = &ShardOf{Index: 1, Total: 4, Version: "1.2.3"}
	merged := goodFile()
	merged.Shards = []MergedShard{{Name: "s0.json", Index: 0, SHA256: strings.Repeat("a", 64)}}
	for _, f := range []File{shard, merged} {
		data := encoded(t, f)
		if err := validateSchema(sch, data); err != nil {
			t.Errorf("does not validate against the schema: %v\n%s", err, data)
		}
		back, err := Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if (f.Shard != nil) != (back.Shard != nil) || f.Shard != nil && *back.Shard != *f.Shard || len(back.Shards) != len(f.Shards) {
			t.Errorf("read back shard %+v, shards %+v; want %+v, %+v", back.Shard, back.Shards, f.Shard, f.Shards)
		}
	}
	bad := goodFile()
	bad.Shard = &ShardOf{Index: 4, Total: 4}
	if err := validate(bad, t0.Add(2*time.Hour)); err == nil || err.Path != "run.shard" {
		t.Errorf("index 4 of 4: %v, want refused at run.shard", err)
	}
	bad = goodFile()
	bad.Shards = []MergedShard{{Name: "x", SHA256: "abc"}}
	if err := validate(bad, t0.Add(2*time.Hour)); err == nil || err.Path != "run.shards[0].sha256" {
		t.Errorf("a short digest: %v, want refused at run.shards[0].sha256", err)
	}
}
