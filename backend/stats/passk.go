package stats

// PassAtK is the unbiased estimate of pass@k from c successes in n trials: the chance that at
// least one of k trials drawn without replacement succeeds, 1 − C(n−c, k)/C(n, k) (Chen et
// al., 2021). It measures capability. ok is false when k is not between 1 and n.
func PassAtK(n, c, k int) (v float64, ok bool) {
	if k < 1 || k > n || c < 0 || c > n {
		return 0, false
	}
	return 1 - ratioOfChooses(n-c, n, k), true
}

// PassHatK is pass^k from c successes in n trials: the chance that all of k trials drawn
// without replacement succeed, C(c, k)/C(n, k) (τ-bench, Yao et al., 2024). It measures
// reliability: pass^1 is the success rate, and it falls as k grows unless every trial passes.
// ok is false when k is not between 1 and n.
func PassHatK(n, c, k int) (v float64, ok bool) {
	if k < 1 || k > n || c < 0 || c > n {
		return 0, false
	}
	return ratioOfChooses(c, n, k), true
}

// ratioOfChooses is C(m, k)/C(n, k) for m <= n, as a product of k factors (m−i)/(n−i),
// which neither overflows nor loses precision the way the binomials themselves would.
func ratioOfChooses(m, n, k int) float64 {
	r := 1.0
	for i := range k {
		if m-i <= 0 {
			return 0
		}
		r *= float64(m-i) / float64(n-i)
	}
	return r
}
