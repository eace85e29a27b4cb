package runfile

import (
	"bytes"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// shardOf is the good run cut down to the attempts named, as `run --shard` would write it.
func shardOf(name string, slugs ...string) Shard {
	f := goodFile()
	var kept []agent.Attempt
	for _, a := range f.Run.Attempts {
		for _, s := range slugs {
			if a.Slug == s {
				kept = append(kept, a)
			}
		}
	}
	f.Run.Attempts = kept
	return Shard{Name: name, File: f}
}

func TestMergeJoinsShardsInTheTasksOrder(t *testing.T) {
	run, err := Merge(findFake, []Shard{shardOf("shard2.json", "wrong-room"), shardOf("shard1.json", "saves-normally")})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 2 || run.Attempts[0].Slug != "saves-normally" || run.Attempts[1].Slug != "wrong-room" {
		t.Fatalf("merged attempts %v, want the task's order", run.Attempts)
	}
	if run.ID == goodRun().ID || run.Task != "fake" || !strings.Contains(run.Source, "shard2.json, shard1.json") {
		t.Errorf("merged run %s of %s from %q", run.ID, run.Task, run.Source)
	}
	res, err := Verify(findFake, New(run, t0))
	if err != nil || len(res.Disagreements) != 0 {
		t.Errorf("the merged run does not verify: %v %+v", err, res.Disagreements)
	}
}

func TestMergeRefusesShardsThatDoNotBelongTogether(t *testing.T) {
	otherConfig := shardOf("slow.json", "wrong-room")
	otherConfig.File.Run.Attempts[0].Config.DeadlineMS = 9000
	otherConfig.File.Run.Attempts[0].Verdicts = goodRun().Attempts[1].Verdicts
	tampered := shardOf("tampered.json", "wrong-room")
	tampered.File.Run.Attempts[0].Verdicts.Gate.Done = true
	otherTask := shardOf("other.json", "wrong-room")
	otherTask.File.Run.Task = "another"
	for _, tt := range []struct {
		name   string
		shards []Shard
		says   string
	}{
		{"overlap", []Shard{shardOf("a.json", "saves-normally"), shardOf("b.json", "saves-normally", "wrong-room")}, `attempt "saves-normally" is in both a.json and b.json`},
		{"another configuration", []Shard{shardOf("a.json", "saves-normally"), otherConfig}, "deadline_ms 9000"},
		{"a shard that lies", []Shard{shardOf("a.json", "saves-normally"), tampered}, "tampered.json: 1 recorded verdict(s) disagree"},
		{"another task", []Shard{shardOf("a.json", "saves-normally"), otherTask}, `other.json is a run of task "another"`},
		{"nothing", nil, "nothing to merge"},
	} {
		if _, err := Merge(findFake, tt.shards); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: Merge = %v, want an error saying %q", tt.name, err, tt.says)
		}
	}
}

// TestMergeJoinsShardsOfTrials merges the shards of a repeated run, the trials dealt out
// every other one: the merged run holds each attempt's trials in order, after the task's
// attempts' order, and a trial in two shards is refused.
func TestMergeJoinsShardsOfTrials(t *testing.T) {
	trials := func(name string, picks ...[2]int) Shard { // [attempt index in the good run, trial]
		f := goodFile()
		var kept []agent.Attempt
		for _, p := range picks {
			a := f.Run.Attempts[p[0]]
			a.Slug, a.Trial = agent.TrialSlug(a.Slug, p[1]), p[1]
			kept = append(kept, a)
		}
		f.Run.Attempts = kept
		return Shard{Name: name, File: f}
	}
	one := trials("1.json", [2]int{0, 1}, [2]int{1, 1}, [2]int{0, 3})
	two := trials("2.json", [2]int{1, 2}, [2]int{0, 2})
	run, err := Merge(findFake, []Shard{two, one})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range run.Attempts {
		got = append(got, a.Slug)
	}
	if want := "saves-normally.t1 saves-normally.t2 saves-normally.t3 wrong-room.t1 wrong-room.t2"; strings.Join(got, " ") != want {
		t.Errorf("merged %v, want %s", got, want)
	}
	var buf bytes.Buffer // the trial numbers go through the file and back
	if err := EncodeFile(&buf, New(run, t0)); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(&buf)
	if err != nil || back.Run.Attempts[2].Trial != 3 || back.Run.Attempts[4].Trial != 2 {
		t.Errorf("decoded %v: trials lost", err)
	}
	if _, err := Merge(findFake, []Shard{one, trials("3.json", [2]int{0, 3})}); err == nil || !strings.Contains(err.Error(), `"saves-normally.t3" is in both`) {
		t.Errorf("a trial in two shards: %v, want refused", err)
	}
}
