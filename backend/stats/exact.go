package stats

import "math"

// tolerance is the relative slack with which a table's probability counts as no more likely
// than the observed one's, as R's fisher.test allows, so rounding never drops a tie.
const tolerance = 1 + 1e-7

// McNemar is the exact two-sided McNemar test of paired trials: b pairs where only the first
// side succeeded and c where only the second did. Under no difference each discordant pair is
// a fair coin, so p is twice the smaller binomial tail, capped at 1. Pairs that agree carry
// no information. With n = b + c discordant pairs p is never below 2·0.5ⁿ.
func McNemar(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	tail := 0.0
	for i := 0; i <= min(b, c); i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

// Fisher is Fisher's exact two-sided test of a 2×2 table of independent samples: a
// successes out of a.N on one side, b.K out of b.N on the other. p sums the probabilities of
// every table with the same margins that is no more likely than the one observed.
func Fisher(a, b Proportion) float64 {
	successes, n := a.K+b.K, a.N+b.N
	if a.N == 0 || b.N == 0 || successes == 0 || successes == n {
		return 1
	}
	// The count of successes on a's side follows the hypergeometric distribution.
	prob := func(x int) float64 {
		return math.Exp(logChoose(a.N, x) + logChoose(b.N, successes-x) - logChoose(n, successes))
	}
	observed := prob(a.K)
	p := 0.0
	for x := max(0, successes-b.N); x <= min(successes, a.N); x++ {
		if q := prob(x); q <= observed*tolerance {
			p += q
		}
	}
	return min(1, p)
}

// logChoose is ln C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
