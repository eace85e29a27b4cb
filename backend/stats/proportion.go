package stats

import (
	"fmt"
	"math"
)

// Level is the confidence level of the intervals this package returns.
const Level = 0.95

// z is the standard normal quantile of a two-sided interval at Level.
var z = math.Sqrt2 * math.Erfinv(Level)

// Interval is a closed interval [Lo, Hi].
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// String prints the interval as percentages, "[12%, 54%]".
func (i Interval) String() string {
	return fmt.Sprintf("[%.0f%%, %.0f%%]", 100*i.Lo, 100*i.Hi)
}

// Proportion is k successes out of n trials.
type Proportion struct {
	K int `json:"k"`
	N int `json:"n"`
}

// Rate is K/N, or 0 when N is 0.
func (p Proportion) Rate() float64 {
	if p.N == 0 {
		return 0
	}
	return float64(p.K) / float64(p.N)
}

// Wilson is the Wilson score interval of the proportion at Level: unlike the normal
// approximation it stays inside [0, 1] and is not empty at 0 or N successes. With no trials
// the interval is [0, 1]: nothing is known.
func (p Proportion) Wilson() Interval {
	if p.N == 0 {
		return Interval{0, 1}
	}
	n, phat := float64(p.N), p.Rate()
	centre := phat + z*z/(2*n)
	spread := z * math.Sqrt(phat*(1-phat)/n+z*z/(4*n*n))
	denom := 1 + z*z/n
	lo, hi := (centre-spread)/denom, (centre+spread)/denom
	// At 0 and N successes the bound is exactly 0 or 1; rounding must not move it.
	if p.K == 0 {
		lo = 0
	}
	if p.K == p.N {
		hi = 1
	}
	return Interval{Lo: max(lo, 0), Hi: min(hi, 1)}
}

// Difference is b's rate minus a's, with Newcombe's hybrid score interval (his method 10),
// built from each side's Wilson interval; it suits independent samples of any size.
func Difference(a, b Proportion) (float64, Interval) {
	d := b.Rate() - a.Rate()
	wa, wb := a.Wilson(), b.Wilson()
	pa, pb := a.Rate(), b.Rate()
	lo := d - math.Sqrt(sq(pb-wb.Lo)+sq(wa.Hi-pa))
	hi := d + math.Sqrt(sq(wb.Hi-pb)+sq(pa-wa.Lo))
	return d, Interval{Lo: max(lo, -1), Hi: min(hi, 1)}
}

func sq(x float64) float64 { return x * x }
