package agent

// JaccardDistance is 1 - |A∩B| / |A∪B| over the sets of role/name pairs, 0 when both are
// empty. A large distance means the page's structure changed, not that anything succeeded.
func JaccardDistance(a, b []RoleName) float64 {
	set := make(map[RoleName]uint8, len(a)+len(b))
	for _, p := range a {
		set[p] |= 1
	}
	for _, p := range b {
		set[p] |= 2
	}
	if len(set) == 0 {
		return 0
	}
	both := 0
	for _, m := range set {
		if m == 3 {
			both++
		}
	}
	return 1 - float64(both)/float64(len(set))
}
