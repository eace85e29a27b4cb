package retention

import (
	"reflect"
	"testing"
	"time"
)

func TestExpired(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	runs := []Run{ // newest added first
		{ID: "today", Added: now.Add(-time.Hour)},
		{ID: "yesterday", Added: now.Add(-day - time.Hour)},
		{ID: "last-week", Added: now.Add(-7 * day)},
		{ID: "last-month", Added: now.Add(-30 * day)},
	}
	for _, tc := range []struct {
		name string
		p    Policy
		want []string
	}{
		{"off keeps everything", Policy{}, nil},
		{"keep the last two", Policy{KeepLast: 2}, []string{"last-week", "last-month"}},
		{"keep more than there are", Policy{KeepLast: 10}, nil},
		{"keep two days", Policy{KeepDays: 2}, []string{"last-week", "last-month"}},
		{"keep a day: yesterday's run is past it", Policy{KeepDays: 1}, []string{"yesterday", "last-week", "last-month"}},
		{"either limit lets a run go", Policy{KeepLast: 3, KeepDays: 10}, []string{"last-month"}},
		{"the stricter limit wins", Policy{KeepLast: 1, KeepDays: 10}, []string{"yesterday", "last-week", "last-month"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.Expired(runs, now); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Expired = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, p := range []Policy{{}, {KeepLast: 1}, {KeepDays: MaxDays}, {KeepLast: 5, KeepDays: 30}} {
		if err := p.Validate(); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
	for _, p := range []Policy{{KeepLast: -1}, {KeepDays: -3}, {KeepDays: MaxDays + 1}} {
		if err := p.Validate(); err == nil {
			t.Errorf("%+v: want an error", p)
		}
	}
}
