package runner_test

import (
	"slices"
	"strings"
	"testing"

	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// TestSelectRepeats checks that a repeated run holds every attempt's trials, named and
// numbered, that a slug names an attempt's trials or one trial, and that a trial is named
// once.
func TestSelectRepeats(t *testing.T) {
	suite := booking.New()
	all, err := runner.Select(suite, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3 * len(suite.Attempts()); len(all) != want {
		t.Fatalf("%d specs, want %d: three trials of each attempt", len(all), want)
	}
	first := suite.Attempts()[0].Slug
	for k, s := range all[:3] {
		if s.Slug != first+".t"+string(rune('1'+k)) || s.Trial != k+1 {
			t.Errorf("spec %d is %s, trial %d; want %s.t%d, trial %d", k, s.Slug, s.Trial, first, k+1, k+1)
		}
	}
	picked, err := runner.Select(suite, []string{"wrong-room", "saves-normally.t2"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range picked {
		got = append(got, s.Slug)
	}
	if want := []string{"wrong-room.t1", "wrong-room.t2", "wrong-room.t3", "saves-normally.t2"}; !slices.Equal(got, want) {
		t.Errorf("picked %v, want %v", got, want)
	}
	if _, err := runner.Select(suite, []string{"wrong-room", "wrong-room.t1"}, 3); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("a trial named twice: %v, want refused", err)
	}
	if _, err := runner.Select(suite, []string{"wrong-room.t4"}, 3); err == nil {
		t.Error("trial 4 of 3 was selected")
	}
	if once, _ := runner.Select(suite, nil, 1); once[0].Slug != first || once[0].Trial != 0 {
		t.Errorf("repeat 1 made %s trial %d: a single run has no trials", once[0].Slug, once[0].Trial)
	}
}
