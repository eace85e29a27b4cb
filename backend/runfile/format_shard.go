package runfile

import (
	"encoding/hex"
	"fmt"
)

// ShardOf says which share of a run a file holds: shard Index (from 0) of Total, run by
// Observatory Version. Merge reads it to refuse a missing or repeated index and shards of
// different versions.
type ShardOf struct {
	Index, Total int
	Version      string
}

// MergedShard is one shard file a merged run was made from: the name it was given, its
// index (-1 for a file from before shards were recorded) and the SHA-256 of its bytes.
type MergedShard struct {
	Name   string
	Index  int
	SHA256 string
}

// shardV2 is ShardOf in the format.
type shardV2 struct {
	Index       int    `json:"index"`
	Total       int    `json:"total"`
	Observatory string `json:"observatory"`
}

// mergedShardV2 is MergedShard in the format.
type mergedShardV2 struct {
	Name   string `json:"name"`
	Index  int    `json:"index"`
	SHA256 string `json:"sha256"`
}

func fromShard(s ShardOf) shardV2 {
	return shardV2{Index: s.Index, Total: s.Total, Observatory: s.Version}
}

func (s shardV2) toDomain() ShardOf {
	return ShardOf{Index: s.Index, Total: s.Total, Version: s.Observatory}
}

func fromMergedShard(m MergedShard) mergedShardV2 {
	return mergedShardV2{Name: m.Name, Index: m.Index, SHA256: m.SHA256}
}

func (m mergedShardV2) toDomain() MergedShard {
	return MergedShard{Name: m.Name, Index: m.Index, SHA256: m.SHA256}
}

// validateShards checks a file's shard and the shards it was merged from.
func validateShards(f File) *Error {
	if s := f.Shard; s != nil && (s.Total < 1 || s.Index < 0 || s.Index >= s.Total) {
		return refuse("run.shard", "index %d of %d shards: want 0 <= index < total", s.Index, s.Total)
	}
	for i, m := range f.Shards {
		p := index("run.shards", i)
		if b, err := hex.DecodeString(m.SHA256); err != nil || len(b) != 32 {
			return refuse(child(p, "sha256"), "%s", fmt.Sprintf("want 64 hexadecimal digits, not %q", m.SHA256))
		}
	}
	return nil
}
