package runfile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// CheckShards refuses shards that do not make one whole run, each refusal naming the shard:
// shards that record their index (run --shard, --shard-index-env) must all do, of one total
// and one Observatory version, every index from 0 to the total once. Shards that record none
// (files from before shards were recorded) are taken as they are. It returns what the merged
// run records of them, in index order; digests are the Shard's SHA256.
func CheckShards(shards []Shard) ([]MergedShard, error) {
	var with, without []string
	for _, sh := range shards {
		if sh.File.Shard != nil {
			with = append(with, sh.Name)
		} else {
			without = append(without, sh.Name)
		}
	}
	if len(with) > 0 && len(without) > 0 {
		return nil, fmt.Errorf("%s records no shard index, but %s does: merge the files of one sharded run (run --shard or --shard-index-env)", without[0], with[0])
	}
	out := make([]MergedShard, 0, len(shards))
	if len(with) == 0 {
		for _, sh := range shards {
			out = append(out, MergedShard{Name: sh.Name, Index: -1, SHA256: sh.SHA256})
		}
		return out, nil
	}
	first := shards[0]
	fs := first.File.Shard
	byIndex := map[int]string{}
	for _, sh := range shards {
		s := sh.File.Shard
		switch {
		case s.Total != fs.Total:
			return nil, fmt.Errorf("%s is shard %d of %d, but %s is one of %d: merge the shards of one run", sh.Name, s.Index, s.Total, first.Name, fs.Total)
		case s.Version != fs.Version:
			return nil, fmt.Errorf("%s was run by Observatory %s, but %s by %s: shards of one run are run by one version", sh.Name, s.Version, first.Name, fs.Version)
		}
		if other, dup := byIndex[s.Index]; dup {
			return nil, fmt.Errorf("shard index %d is in both %s and %s: each index is merged once", s.Index, other, sh.Name)
		}
		byIndex[s.Index] = sh.Name
		out = append(out, MergedShard{Name: sh.Name, Index: s.Index, SHA256: sh.SHA256})
	}
	var missing []string
	for i := range fs.Total {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard index %s of %d (0-based) is missing: %d of %d shards given; a merged run needs every shard",
			strings.Join(missing, ", "), fs.Total, len(shards), fs.Total)
	}
	slices.SortFunc(out, func(a, b MergedShard) int { return cmp.Compare(a.Index, b.Index) })
	return out, nil
}
