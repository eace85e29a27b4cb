package agent

import (
	"math"
	"testing"
)

func TestJaccardDistance(t *testing.T) {
	b := func(n string) RoleName { return RoleName{Role: "button", Name: n} }
	tests := []struct {
		name string
		a, c []RoleName
		want float64
	}{
		{"both empty", nil, nil, 0},
		{"identical", []RoleName{b("a"), b("b")}, []RoleName{b("b"), b("a")}, 0},
		{"disjoint", []RoleName{b("a")}, []RoleName{b("b")}, 1},
		{"one of three shared", []RoleName{b("a"), b("b")}, []RoleName{b("b"), b("c")}, 1 - 1.0/3},
		{"duplicates count once", []RoleName{b("a"), b("a")}, []RoleName{b("a")}, 0},
		{"role matters", []RoleName{{Role: "link", Name: "a"}}, []RoleName{b("a")}, 1},
	}
	for _, tt := range tests {
		if got := JaccardDistance(tt.a, tt.c); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
