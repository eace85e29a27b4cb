package compare

import (
	"testing"

	"observatory/backend/agent"
)

// Two runs of one attempt with another latency, fault and deadline list exactly those
// settings, with both values; an attempt run alike lists none.
func TestRunsListsTheSettingsThatDiffer(t *testing.T) {
	base := agent.Attempt{Slug: "save", Title: "Save", Config: agent.DefaultConfig(), Params: map[string]int{"latency_ms": 50}}
	other := base
	other.Params = map[string]int{"latency_ms": 500}
	other.Fault = "slow-save"
	other.Config.DeadlineMS = base.Config.DeadlineMS + 1000
	c := Runs(agent.Run{ID: "a", Attempts: []agent.Attempt{base}}, agent.Run{ID: "b", Attempts: []agent.Attempt{other}})
	got := map[string]Setting{}
	for _, s := range c.Settings {
		got[s.Name] = s
	}
	if len(got) != 3 || got["params.latency_ms"].A != "50" || got["params.latency_ms"].B != "500" ||
		got["fault"].A != "" || got["fault"].B != `"slow-save"` {
		t.Fatalf("settings %+v, want the latency, the fault and the deadline", c.Settings)
	}
	for name := range got {
		if name != "params.latency_ms" && name != "fault" && got[name].Slug != "save" {
			t.Errorf("setting %+v names no attempt", got[name])
		}
	}
	if same := Runs(agent.Run{Attempts: []agent.Attempt{base}}, agent.Run{Attempts: []agent.Attempt{base}}); len(same.Settings) != 0 {
		t.Errorf("two runs alike list settings %+v", same.Settings)
	}
}
