package labkit

import (
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// count is a transition function for the tests: it counts events and refuses type "bad".
func count(n int, ev agent.Event) (int, error) {
	if ev.Type == "bad" {
		return n, errors.New("bad event")
	}
	return n + 1, nil
}

// TestReplay replays up to the first refused event, and apply made inOrder also refuses an
// event out of sequence.
func TestReplay(t *testing.T) {
	evs := []agent.Event{{Seq: 1, Type: "a"}, {Seq: 2, Type: "a"}, {Seq: 3, Type: "bad"}, {Seq: 4, Type: "a"}}
	if n, err := Replay(0, count, evs[:2]); n != 2 || err != nil {
		t.Errorf("Replay = %d, %v; want 2, nil", n, err)
	}
	if n, err := Replay(0, count, evs); n != 2 || err == nil {
		t.Errorf("Replay = %d, %v; want 2 and the bad event's error", n, err)
	}
	skipped := []agent.Event{{Seq: 1, Type: "a"}, {Seq: 3, Type: "a"}}
	if n, err := Replay(0, count, skipped); n != 2 || err != nil {
		t.Errorf("Replay = %d, %v; want 2, nil: it leaves the order to apply", n, err)
	}
	var ee *EventError
	if n, err := Replay(0, inOrder(count), skipped); n != 1 || !errors.As(err, &ee) || ee.Seq != 3 {
		t.Errorf("Replay in order = %d, %v; want 1 and an *EventError at 3", n, err)
	}
	if n, err := Replay(0, inOrder(count), evs[:2]); n != 2 || err != nil {
		t.Errorf("Replay in order = %d, %v; want 2, nil", n, err)
	}
}

// TestCheckTable names the attempts not run both ways and the rows that differ, and passes
// identical ones.
func TestCheckTable(t *testing.T) {
	specs := []agent.AttemptSpec{{Slug: "same"}, {Slug: "differs"}, {Slug: "missing"}}
	table := map[string]agent.Terminal{"same": agent.Completed, "differs": agent.Completed, "missing": agent.Completed}
	runs := []agent.Attempt{{Slug: "same", Terminal: agent.Completed}, {Slug: "differs", Terminal: agent.Failed}}
	row := func(_, h agent.Attempt) (agent.Terminal, error) { return h.Terminal, nil }
	err := CheckTable(specs, runs, runs, table, row)
	if err == nil || strings.Contains(err.Error(), "same") ||
		!strings.Contains(err.Error(), "differs: ") || !strings.Contains(err.Error(), "missing: not run both ways") {
		t.Errorf("CheckTable = %v; want differs and missing named, same not", err)
	}
	if err := CheckTable(specs[:1], runs, runs, table, row); err != nil {
		t.Errorf("CheckTable = %v; want nil", err)
	}
}

// TestIntParam takes the default, the given value, or refuses another parameter by name.
func TestIntParam(t *testing.T) {
	if v, err := IntParam("demo", nil, "latency_ms", 5); v != 5 || err != nil {
		t.Errorf("IntParam = %d, %v; want 5, nil", v, err)
	}
	if v, err := IntParam("demo", map[string]int{"latency_ms": 9}, "latency_ms", 5); v != 9 || err != nil {
		t.Errorf("IntParam = %d, %v; want 9, nil", v, err)
	}
	_, err := IntParam("demo", map[string]int{"speed": 1}, "latency_ms", 5)
	if want := `demo lab has no parameter "speed"; it has latency_ms`; err == nil || err.Error() != want {
		t.Errorf("IntParam error = %v; want %s", err, want)
	}
}
