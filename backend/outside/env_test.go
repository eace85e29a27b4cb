package outside

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAgentInheritsOnlyWhatIsNamed: by default the agent process inherits Observatory's
// environment; with Inherit.Only, only the variables named (a name or a pattern), and always
// what it is handed. The environment is the one a real process sees.
func TestAgentInheritsOnlyWhatIsNamed(t *testing.T) {
	if _, err := exec.LookPath("env"); err != nil {
		t.Skip("no env program:", err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("KEEP_ONE", "1")
	t.Setenv("KEEP_TWO", "2")
	t.Setenv("OTHER", "x")
	handed := []string{"OBSERVATORY_CDP_URL=http://127.0.0.1:1"}
	seen := func(in Inherit) []string {
		t.Helper()
		p, err := start([]string{"env"}, "", in.environment(os.Environ(), handed), "")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := p.wait(ctx); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(p.out.String()), "\n")
	}
	all := seen(Inherit{})
	for _, kv := range []string{"OPENAI_API_KEY=sk-test", "OTHER=x", "OBSERVATORY_CDP_URL=http://127.0.0.1:1"} {
		if !slices.Contains(all, kv) {
			t.Errorf("by default the agent lacks %s", kv)
		}
	}
	only := seen(Inherit{Only: true, Names: []string{"KEEP_*", "OPENAI_API_KEY"}})
	slices.Sort(only)
	if want := []string{"KEEP_ONE=1", "KEEP_TWO=2", "OBSERVATORY_CDP_URL=http://127.0.0.1:1", "OPENAI_API_KEY=sk-test"}; !slices.Equal(only, want) {
		t.Errorf("inheriting only KEEP_* and OPENAI_API_KEY, the agent sees %q, want %q", only, want)
	}
	if none := seen(Inherit{Only: true}); !slices.Equal(none, handed) {
		t.Errorf("inheriting nothing, the agent sees %q, want only %q", none, handed)
	}
	if err := (Inherit{Names: []string{"A=B"}}).Check(); err == nil {
		t.Errorf("--agent-env A=B accepted")
	}
}
