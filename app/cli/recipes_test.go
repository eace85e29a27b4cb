package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The CI recipes docs/ci.md documents, as files a user copies.
var (
	workflowRecipe   = filepath.Join("..", "..", "docs", "ci", "observatory.yml")
	kubernetesRecipe = filepath.Join("..", "..", "docs", "ci", "kubernetes.yaml")
)

// TestWorkflowRecipePassesActionlint lints the GitHub Actions workflow with actionlint (as a
// library, v1.7.12; with shellcheck when the machine has it): workflow syntax, expressions
// and contexts, the inputs of the actions it uses and its run scripts.
func TestWorkflowRecipePassesActionlint(t *testing.T) {
	var out bytes.Buffer
	opts := &actionlint.LinterOptions{}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = sc
	}
	l, err := actionlint.NewLinter(&out, opts)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile(workflowRecipe, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("actionlint: %s", e.Error())
	}
	b, err := os.ReadFile(workflowRecipe)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--shard-index-env SHARD_INDEX", "--shard-exit written", "if: ${{ !cancelled() }}", "observatory merge shards/*.json", "--report github", "fail-fast: false"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the workflow lacks %q", want)
		}
	}
}

// kubernetesJobs strict-decodes the recipe's two documents into batch/v1 Jobs: an unknown or
// misspelt field fails.
func kubernetesJobs(t *testing.T) (shards, merge batchv1.Job) {
	t.Helper()
	b, err := os.ReadFile(kubernetesRecipe)
	if err != nil {
		t.Fatal(err)
	}
	docs := regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1)
	if len(docs) != 2 {
		t.Fatalf("%s holds %d documents, want the shards' Job and the merge Job", kubernetesRecipe, len(docs))
	}
	for i, dst := range []*batchv1.Job{&shards, &merge} {
		if err := yaml.UnmarshalStrict([]byte(docs[i]), dst); err != nil {
			t.Fatalf("%s document %d: %v", kubernetesRecipe, i+1, err)
		}
	}
	return shards, merge
}

// digestPinned matches an image pinned by digest.
var digestPinned = regexp.MustCompile(`^[^@\s]+@sha256:[0-9a-f]{64}$`)

// TestKubernetesRecipeHoldsItsInvariants checks what the recipe promises: an Indexed Job whose
// completions equal --shard-total, per-index backoff with restartPolicy Never (which it
// requires), no retry of exit 3 (nothing selected), the index read from JOB_COMPLETION_INDEX
// with --shard-exit written, images pinned by digest, and a merge Job that is never retried
// and merges every index.
func TestKubernetesRecipeHoldsItsInvariants(t *testing.T) {
	shards, merge := kubernetesJobs(t)
	s := shards.Spec
	if shards.APIVersion != "batch/v1" || shards.Kind != "Job" || s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("the shards' Job: %s %s, completion mode %v: want an Indexed batch/v1 Job", shards.APIVersion, shards.Kind, s.CompletionMode)
	}
	if s.BackoffLimitPerIndex == nil || s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("backoffLimitPerIndex %v with restartPolicy %q: want per-index backoff, which needs Never", s.BackoffLimitPerIndex, s.Template.Spec.RestartPolicy)
	}
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("want one container, not %d", len(s.Template.Spec.Containers))
	}
	c := s.Template.Spec.Containers[0]
	total := flagValue(c.Args, "--shard-total")
	if s.Completions == nil || total != strconv.Itoa(int(*s.Completions)) {
		t.Errorf("completions %v, --shard-total %q: want them equal", s.Completions, total)
	}
	if flagValue(c.Args, "--shard-index-env") != "JOB_COMPLETION_INDEX" || flagValue(c.Args, "--shard-exit") != "written" {
		t.Errorf("args %v: want the index from JOB_COMPLETION_INDEX and --shard-exit written", c.Args)
	}
	failIndex := false
	for _, r := range s.PodFailurePolicy.Rules {
		if r.Action == batchv1.PodFailurePolicyActionFailIndex && r.OnExitCodes != nil && slices.Contains(r.OnExitCodes.Values, int32(statusNothingSelected)) {
			failIndex = true
		}
	}
	if !failIndex {
		t.Errorf("podFailurePolicy %+v: want exit %d (nothing selected) to fail its index, never retried", s.PodFailurePolicy, statusNothingSelected)
	}
	if len(merge.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("the merge Job: want one container")
	}
	m := merge.Spec.Template.Spec.Containers[0]
	for _, image := range []string{c.Image, m.Image} {
		if !digestPinned.MatchString(image) {
			t.Errorf("image %q: want it pinned by digest", image)
		}
	}
	if merge.Spec.BackoffLimit == nil || *merge.Spec.BackoffLimit != 0 || m.Args[0] != "merge" {
		t.Errorf("the merge Job: backoffLimit %v, args %v: want merge, never retried", merge.Spec.BackoffLimit, m.Args)
	}
	for i := range int(*s.Completions) {
		if want := "/results/shard-" + strconv.Itoa(i) + "-of-" + total + ".json"; !slices.Contains(m.Args, want) {
			t.Errorf("the merge Job's args %v lack %s", m.Args, want)
		}
	}
}

// flagValue is the value of --name=value among args.
func flagValue(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}
