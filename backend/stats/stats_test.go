package stats

import (
	"math"
	"testing"
)

// The expected values below were computed apart from this package: in Python's standard
// library (statistics.NormalDist for the quantile, exact fractions over math.comb for the
// tests and estimators, enumerating every table), and where a paper or reference gives one,
// checked against it (Newcombe 1998 for the Wilson and difference intervals, Wikipedia's
// Fisher example, R's fisher.test convention).

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10f, want %.10f", what, got, want)
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 20, 0, 0.1611251581},            // Newcombe 1998, table II: 0–0.1611
		{1, 29, 0.0061132143, 0.1717552188}, // 0.0061–0.1718
		{15, 148, 0.0623863995, 0.1604872417},
		{81, 263, 0.2552885199, 0.3662095770}, // 0.2553–0.3662
		{5, 10, 0.2365930905, 0.7634069095},
		{3, 3, 0.4385029682, 1},
		{0, 3, 0, 0.5614970318},
		{2, 6, 0.0967714111, 0.7000066849},
		{0, 0, 0, 1},
	} {
		w := Proportion{c.k, c.n}.Wilson()
		near(t, "lo", w.Lo, c.lo, 1e-9)
		near(t, "hi", w.Hi, c.hi, 1e-9)
	}
}

func TestDifference(t *testing.T) {
	for _, c := range []struct {
		a, b      Proportion
		d, lo, hi float64
	}{
		{Proportion{48, 80}, Proportion{56, 70}, 0.2, 0.0524314724, 0.3338726540}, // Newcombe 1998: 0.0524, 0.3339
		{Proportion{0, 10}, Proportion{10, 10}, 1, 0.6075093504, 1},
		{Proportion{3, 6}, Proportion{3, 6}, 0, -0.4417772560, 0.4417772560},
		{Proportion{0, 6}, Proportion{6, 6}, 1, 0.4479839562, 1},
	} {
		d, iv := Difference(c.a, c.b)
		near(t, "difference", d, c.d, 1e-12)
		near(t, "lo", iv.Lo, c.lo, 1e-9)
		near(t, "hi", iv.Hi, c.hi, 1e-9)
		// Swapping the sides mirrors the interval.
		d2, iv2 := Difference(c.b, c.a)
		near(t, "swapped difference", d2, -c.d, 1e-12)
		near(t, "swapped lo", iv2.Lo, -c.hi, 1e-9)
	}
}

func TestMcNemar(t *testing.T) {
	for _, c := range []struct {
		b, c int
		p    float64
	}{
		{6, 0, 0.03125}, {0, 6, 0.03125}, {5, 0, 0.0625}, {3, 0, 0.25},
		{7, 2, 0.1796875}, {10, 10, 1}, {1, 12, 0.00341796875}, {0, 0, 1},
	} {
		near(t, "McNemar", McNemar(c.b, c.c), c.p, 1e-12)
	}
	// The floor: n discordant pairs all one way give 2·0.5ⁿ, never less.
	for n := 1; n <= 20; n++ {
		near(t, "McNemar floor", McNemar(n, 0), min(1, 2*math.Pow(0.5, float64(n))), 1e-12)
	}
}

func TestFisher(t *testing.T) {
	for _, c := range []struct {
		a, b Proportion
		p    float64
	}{
		{Proportion{3, 4}, Proportion{1, 4}, 0.485714285714},   // the lady tasting tea
		{Proportion{1, 9}, Proportion{11, 14}, 0.002759456185}, // Wikipedia's example
		{Proportion{0, 6}, Proportion{6, 6}, 0.002164502165},
		{Proportion{2, 10}, Proportion{5, 10}, 0.349845201238},
		{Proportion{7, 12}, Proportion{2, 8}, 0.196808763991},
		{Proportion{0, 5}, Proportion{0, 5}, 1},
		{Proportion{0, 0}, Proportion{3, 5}, 1},
	} {
		near(t, "Fisher", Fisher(c.a, c.b), c.p, 1e-9)
		near(t, "Fisher swapped", Fisher(c.b, c.a), c.p, 1e-9)
	}
}

func TestPassK(t *testing.T) {
	for _, c := range []struct {
		n, c, k int
		at, hat float64
	}{
		{5, 2, 1, 0.4, 0.4}, // k = 1: both are the success rate
		{5, 2, 3, 0.9, 0},
		{10, 3, 2, 0.533333333333, 0.066666666667},
		{5, 5, 5, 1, 1},
		{5, 4, 5, 1, 0},
		{10, 7, 3, 0.991666666667, 0.291666666667},
		{200, 50, 10, 0.947906370596, 0.000000457542},
	} {
		at, ok := PassAtK(c.n, c.c, c.k)
		if !ok {
			t.Fatalf("PassAtK(%d, %d, %d) not ok", c.n, c.c, c.k)
		}
		near(t, "pass@k", at, c.at, 1e-11)
		hat, _ := PassHatK(c.n, c.c, c.k)
		near(t, "pass^k", hat, c.hat, 1e-11)
	}
	for _, k := range []int{0, 6} {
		if _, ok := PassAtK(5, 2, k); ok {
			t.Errorf("PassAtK(5, 2, %d) ok: k must be 1 to n", k)
		}
		if _, ok := PassHatK(5, 2, k); ok {
			t.Errorf("PassHatK(5, 2, %d) ok: k must be 1 to n", k)
		}
	}
}
