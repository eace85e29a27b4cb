package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/cireport/cireporttest"
	"observatory/backend/runfile"
	"observatory/backend/signing"
)

// buildBinary builds the observatory binary once for the test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "observatory")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runBinary runs bin with args and the environment env (on top of this process's), and
// returns its exit status, standard output and standard error.
func runBinary(t *testing.T, bin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

// kubeVar is a $(VAR) reference in a container's args, which the kubelet expands from the
// container's environment.
var kubeVar = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// podArgs are a container's args as the kubelet would pass them: $(VAR) expanded from env,
// then the pod's paths (/suite, /results, /tmp/observatory) moved to this machine's.
func podArgs(args []string, env map[string]string, paths map[string]string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		a = kubeVar.ReplaceAllStringFunc(a, func(m string) string { return env[kubeVar.FindStringSubmatch(m)[1]] })
		for from, to := range paths {
			a = strings.ReplaceAll(a, from, to)
		}
		out[i] = a
	}
	return out
}

// TestCIReportsAndShardsByJobCompletionIndex is the "must show", with one unsharded
// run of the booking task file (eight attempts, three trials each) and the same run as four
// shards:
//
//   - Unsharded, under GITHUB_ACTIONS=true with --report junit, ctrf and github: the JUnit file
//     parses and its counts are the run file's, the checks marked wrong are its properties,
//     its attachments exist; the CTRF file validates against the ctrf 0.3.0 schema; at most ten
//     error annotations, one per failed attempt; the step summary shows rates with intervals.
//   - The Kubernetes recipe's Indexed Job: the real binary run four times with the args the
//     manifest gives and JOB_COMPLETION_INDEX=0..3 as the Job controller sets it, all against
//     one Playwright browser server, each exiting 0 (--shard-exit written); then the merge
//     Job's args: the merged verdicts, JUnit and CTRF equal the unsharded run's (times and
//     paths aside), it exits 2 as the unsharded run does, and records each shard's digest.
//     Index 1 runs twice, as a retried pod would: its file is replaced whole.
//   - A merge missing index 2 is refused naming it; one given index 0 twice is refused too.
func TestCIReportsAndShardsByJobCompletionIndex(t *testing.T) {
	browsertest.Ready(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	suite, results, whole := filepath.Join(dir, "suite"), filepath.Join(dir, "results"), filepath.Join(dir, "whole")
	for _, d := range []string{suite, results, whole} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	task, err := os.ReadFile(bookingTaskFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(suite, "task.yaml"), task, 0o644); err != nil {
		t.Fatal(err)
	}
	shardsJob, mergeJob := kubernetesJobs(t)
	container := shardsJob.Spec.Template.Spec.Containers[0]
	args := container.Args
	repeat := flagValue(args, "--repeat")

	// The unsharded run, as a GitHub Actions step would make it.
	summary := filepath.Join(dir, "summary.md")
	wholeRun := filepath.Join(whole, "run.json")
	code, out, errOut := runBinary(t, bin, []string{"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY=" + summary, "OBSERVATORY_CI_RUN=ci-test"},
		"run", filepath.Join(suite, "task.yaml"), "--repeat", repeat, "--parallel", "2", "--no-video", "--no-screenshots",
		"--data-dir", filepath.Join(dir, "data"), "--export", wholeRun,
		"--report", "junit="+filepath.Join(whole, "junit.xml"), "--report", "ctrf="+filepath.Join(whole, "ctrf.json"), "--report", "github",
		"--report", "html="+filepath.Join(whole, "report.html"))
	if code != statusIncomplete {
		t.Fatalf("unsharded run: exit %d, want %d\n%s", code, statusIncomplete, errOut)
	}
	f, err := readRunFile(wholeRun)
	if err != nil {
		t.Fatal(err)
	}
	checkJUnit(t, f.Run, filepath.Join(whole, "junit.xml"))
	ctrf, err := os.ReadFile(filepath.Join(whole, "ctrf.json"))
	if err != nil {
		t.Fatal(err)
	}
	cireporttest.ValidateCTRF(t, ctrf)
	failed := failedBases(f.Run)
	if errs := strings.Count(out, "::error "); errs != len(failed) || errs > 10 || !strings.Contains(out, "::error title=booking/wrong-room::") {
		t.Errorf("%d error annotations, want one per failed attempt (%d), at most 10:\n%s", errs, len(failed), out)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| booking | saves-normally | ✅ passed | 3/3 | 100% | [44%, 100%] | 1.00 |", "| booking | save-refused | ❌ rejected | 0/3 | 0% | [0%, 56%] | 0.00 |  | Parallax's check (t1, t2, t3) |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the step summary lacks %q:\n%s", want, md)
		}
	}

	// The Indexed Job's pods, each with its JOB_COMPLETION_INDEX, against one browser server.
	server := browsertest.ServerWithBrowser(t)
	total, _ := strconv.Atoi(flagValue(args, "--shard-total"))
	paths := map[string]string{"/suite": suite, "/results": results}
	pod := func(i int) {
		env := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i), "BROWSER_WS": server.URL, "POD_IP": "127.0.0.1"}
		for _, e := range container.Env {
			if e.ValueFrom == nil && e.Name != "BROWSER_WS" {
				env[e.Name] = e.Value
			}
		}
		var environ []string
		for k, v := range env {
			environ = append(environ, k+"="+v)
		}
		pathsHere := map[string]string{"/tmp/observatory": filepath.Join(dir, "pod"+strconv.Itoa(i))}
		for k, v := range paths {
			pathsHere[k] = v
		}
		if code, _, errOut := runBinary(t, bin, environ, podArgs(args, env, pathsHere)...); code != 0 {
			t.Errorf("shard index %d: exit %d, want 0 (--shard-exit written)\n%s", i, code, errOut)
		}
	}
	var wg sync.WaitGroup
	for i := range total {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pod(i)
		}()
	}
	wg.Wait()
	pod(1) // the Job controller retrying an index: its file is replaced whole
	if t.Failed() {
		t.FailNow()
	}
	entries, err := os.ReadDir(results) // before the merge writes its run file and reports
	if err != nil || len(entries) != total {
		t.Fatalf("the results folder holds %d entries (%v), want the %d shard files and nothing half-written", len(entries), err, total)
	}
	merge := mergeJob.Spec.Template.Spec.Containers[0]
	mergeArgs := podArgs(merge.Args, nil, paths)
	code, _, errOut = runBinary(t, bin, []string{"OBSERVATORY_CI_RUN=ci-test"}, mergeArgs...)
	if code != statusIncomplete {
		t.Fatalf("merge: exit %d, want %d as the unsharded run\n%s", code, statusIncomplete, errOut)
	}
	merged, err := readRunFile(filepath.Join(results, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := verdicts(merged.Run), verdicts(f.Run); !reflect.DeepEqual(got, want) {
		t.Errorf("merged verdicts %v\nwant the unsharded run's %v", got, want)
	}
	if len(merged.Shards) != total {
		t.Fatalf("the merged file records %d shards, want %d", len(merged.Shards), total)
	}
	for i, s := range merged.Shards {
		b, err := os.ReadFile(filepath.Join(results, s.Name))
		if err != nil || s.Index != i || s.SHA256 != signing.Digest(b) {
			t.Errorf("recorded shard %+v (%v): want index %d and the file's SHA-256", s, err, i)
		}
	}
	for _, name := range []string{"junit.xml", "ctrf.json"} {
		a, b := readNormalized(t, filepath.Join(whole, name)), readNormalized(t, filepath.Join(results, name))
		if a != b {
			t.Errorf("%s of the merged run differs from the unsharded run's:\n%s\n---\n%s", name, b, a)
		}
	}

	// A shard missing, a shard twice.
	shardFile := func(i int) string { return filepath.Join(results, fmt.Sprintf("shard-%d-of-%d.json", i, total)) }
	code, _, errOut = runBinary(t, bin, nil, "merge", shardFile(0), shardFile(1), shardFile(3), "-o", filepath.Join(dir, "partial.json"))
	if code != 1 || !strings.Contains(errOut, "shard index 2 of 4 (0-based) is missing") {
		t.Errorf("merge without index 2: exit %d, %s; want it refused naming index 2", code, errOut)
	}
	code, _, errOut = runBinary(t, bin, nil, "merge", shardFile(0), shardFile(0), shardFile(1), shardFile(2), shardFile(3), "-o", filepath.Join(dir, "twice.json"))
	if code != 1 || !strings.Contains(errOut, "shard index 0 is in both shard-0-of-4.json and shard-0-of-4.json") {
		t.Errorf("merge with index 0 twice: exit %d, %s; want it refused naming index 0", code, errOut)
	}
}

// verdicts are a run's attempts with their terminal states and wrong checks, in order.
func verdicts(run agent.Run) []string {
	var out []string
	for _, a := range run.Attempts {
		out = append(out, fmt.Sprintf("%s %s %v", a.Slug, a.Terminal, a.Verdicts.Wrong()))
	}
	return out
}

// failedBases are the attempts (without trial suffix) with a trial that did not complete.
func failedBases(run agent.Run) map[string]bool {
	out := map[string]bool{}
	for _, a := range run.Attempts {
		if a.Terminal != agent.Completed {
			out[a.Base()] = true
		}
	}
	return out
}

// checkJUnit parses the JUnit file at path and checks it against run: one testcase per
// attempt with unique names, the failures those of the run file, a "wrong" property exactly
// for the attempts with a check marked wrong, flaky for none (booking's faults fire on every
// trial), and every attachment a file that exists.
func checkJUnit(t *testing.T, run agent.Run, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				ClassName string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Props     []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"properties>property"`
				Failure *struct{} `xml:"failure"`
				Out     string    `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("the JUnit file does not parse: %v", err)
	}
	bases, wrong := map[string]bool{}, map[string]bool{}
	for _, a := range run.Attempts {
		bases[a.Base()] = true
		if len(a.Verdicts.Wrong()) > 0 {
			wrong[a.Base()] = true
		}
	}
	failed := failedBases(run)
	if len(doc.Suites) != 1 || doc.Tests != len(bases) || doc.Failures != len(failed) || len(doc.Suites[0].Cases) != len(bases) {
		t.Fatalf("JUnit: %d tests, %d failures: want the run file's %d attempts, %d failed", doc.Tests, doc.Failures, len(bases), len(failed))
	}
	seen := map[string]bool{}
	attachment := regexp.MustCompile(`(?m)^\[\[ATTACHMENT\|(.+)\]\]$`)
	for _, c := range doc.Suites[0].Cases {
		key := c.ClassName + "/" + c.Name
		if seen[key] || !bases[c.Name] {
			t.Errorf("testcase %s: want each of the run's attempts once", key)
		}
		seen[key] = true
		if (c.Failure != nil) != failed[c.Name] {
			t.Errorf("testcase %s: failure %v, want %v", key, c.Failure != nil, failed[c.Name])
		}
		props := map[string]string{}
		for _, p := range c.Props {
			props[p.Name] = p.Value
		}
		if _, ok := props["wrong"]; ok != wrong[c.Name] || props["flaky"] != "false" || props["trials"] != "3" {
			t.Errorf("testcase %s: properties %v: want wrong %v, flaky false, 3 trials", key, props, wrong[c.Name])
		}
		files := attachment.FindAllStringSubmatch(c.Out, -1)
		if len(files) != 2 || filepath.Base(files[0][1]) != "run.json" || filepath.Base(files[1][1]) != "report.html" {
			t.Errorf("testcase %s attaches %v: want the run file and the HTML report", key, files)
		}
		for _, m := range files {
			if _, err := os.Stat(m[1]); err != nil {
				t.Errorf("testcase %s attaches %s: %v", key, m[1], err)
			}
		}
	}
}

// timing matches what differs between two runs of the same verdicts: times, timestamps,
// durations, and the folders of attached files.
var timing = regexp.MustCompile(`(time|timestamp)="[^"]*"|"(start|stop|duration|timestamp)": ("[^"]*"|\d+)|(ATTACHMENT\||"path": ")[^\]"]*/`)

// readNormalized is the report at path with timing and folders left out.
func readNormalized(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if strings.HasSuffix(path, ".json") && json.Unmarshal(b, &v) != nil {
		t.Fatalf("%s is not JSON", path)
	}
	return timing.ReplaceAllString(string(b), "$1$2$4")
}

// TestABrowserServerOfAnotherPlaywrightIsNamed runs an attempt against a real Playwright
// browser server that says it is Playwright 1.2 (PW_VERSION_OVERRIDE): the run cannot be made,
// and the error names both versions.
func TestABrowserServerOfAnotherPlaywrightIsNamed(t *testing.T) {
	server := browsertest.ServerWithBrowser(t, "PW_VERSION_OVERRIDE=1.2.0")
	code, _, errOut := run(t, "run", "--lab", "booking", "--attempt", "saves-normally", "--browser-ws", server.URL,
		"--no-video", "--no-screenshots", "--data-dir", t.TempDir())
	named := regexp.MustCompile(`runs Playwright 1\.2, but this Observatory's driver is Playwright \d+\.\d+: `)
	if code != 1 || !named.MatchString(errOut) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and both versions named", code, errOut)
	}
}

// readRunFile decodes the run file (JSON, not a bundle) at path.
func readRunFile(path string) (runfile.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return runfile.File{}, err
	}
	defer f.Close()
	return runfile.Decode(f)
}
