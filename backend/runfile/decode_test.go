package runfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// badFiles maps each file of testdata/bad to a fragment its refusal must contain: what is
// wrong and where.
var badFiles = map[string]string{
	"not-json.json":         "line 1, column 3 (byte 2): not JSON: invalid character 'h'",
	"empty.json":            "not JSON: the file is empty",
	"truncated.json":        "not JSON: the document ends early",
	"trailing-garbage.json": "at line 131, column 1 (byte 2936): trailing data after the JSON document",
	"array-at-top.json":     "want a JSON object with schema, exported, run and attempts; got an array",
	"missing-schema.json":   "at schema: missing field",
	"unknown-version.json":  `at schema: unknown schema version "observatory.run/v3": this build reads observatory.run/v1, observatory.run/v2`,
	"mistyped-field.json":   "at attempts[0].events[1].type: want a string, got a number",
	"unknown-field.json":    "at attempts[0].config.turbo: unknown field",
	"missing-field.json":    "at attempts[0].terminal: missing field",
	"bad-time.json":         `at exported: "yesterday" is not an RFC 3339 time`,
	"too-many-events.json":  "at attempts[0].events: 65 events: at most 64 per attempt",
	"bad-terminal.json":     `at attempts[0].terminal: unknown terminal state "done"`,
	"unfinished.json":       `at attempts[0].terminal: unknown terminal state ""`,
	"bad-seq.json":          "at attempts[0].events[1].seq: seq 3: want 2",
	"bad-config.json":       "at attempts[0].config: poll 0 ms: want 1 to 10000",
	"empty-attempts.json":   "at attempts: no attempts",
	"duplicate-slug.json":   `at attempts[1].attempt: duplicate attempt slug "saves-normally" (also attempts[0])`,
	"illegal-order.json":    `at attempts[0].events: attempt "saves-normally": illegal event order: event 1 "save"`,
	"media-kind.json":       `at attempts[0].video: media name "evil.svg" is not a plain file name`,
	"media-path.json":       `at attempts[0].steps[0].after.screenshot: media name "../../.ssh/id_rsa" is not a plain file name`,
	"wrong-lab.json":        `at run.lab: no lab called "other"`,
	"box-nan.json":          "at line 108, column 19 (byte 2607): not JSON: invalid character 'N'",
	"box-huge.json":         "at attempts[0].steps[1].target_box.y: 1e+300: a position lies within ±1000000 CSS pixels",
	"many-candidates.json":  "at attempts[1].steps[0].candidates: 6 candidates: a step records at most 5",
}

func TestBadFilesAreRefusedByName(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "bad"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(badFiles) {
		t.Errorf("testdata/bad has %d files, the table %d: keep them in step", len(entries), len(badFiles))
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			want, ok := badFiles[e.Name()]
			if !ok {
				t.Fatalf("no expected message for %s", e.Name())
			}
			data, err := os.ReadFile(filepath.Join("testdata", "bad", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			saver := &fakeSaver{}
			_, err = Import(findFake, saver, e.Name(), bytes.NewReader(data))
			var refused *Error
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), want) {
				t.Errorf("Import error = %v\nwant an *Error containing %q", err, want)
			}
			if len(saver.saved) != 0 {
				t.Errorf("a refused file stored %d runs", len(saver.saved))
			}
		})
	}
}

func TestOversizeFileIsRefusedWithoutReadingIt(t *testing.T) {
	r := &countingReader{}
	_, err := Decode(r)
	if err == nil || !strings.Contains(err.Error(), "larger than the 8 MiB limit") {
		t.Errorf("Decode of an endless file = %v, want the size refusal", err)
	}
	if r.n > MaxBytes+1 {
		t.Errorf("Decode read %d bytes, want at most MaxBytes+1 = %d", r.n, MaxBytes+1)
	}
}

// countingReader is an endless stream of spaces that counts what was read.
type countingReader struct{ n int }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	c.n += len(p)
	return len(p), nil
}

func TestDecodeReadsWhatEncodeWrites(t *testing.T) {
	want := goodFile()
	got, err := Decode(bytes.NewReader(encoded(t, want)))
	if err != nil {
		t.Fatal(err)
	}
	want.Run.Status = "" // a run file does not carry the run's status
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode(EncodeFile(f)) differs from f:\n got %+v\nwant %+v", got, want)
	}
}

func TestEncodeRefusesWhatDecodeWould(t *testing.T) {
	run := goodRun()
	run.Attempts[1].Terminal = ""
	var buf bytes.Buffer
	err := Encode(&buf, run)
	if err == nil || !strings.Contains(err.Error(), `attempts[1].terminal: unknown terminal state ""`) {
		t.Errorf("Encode of an unfinished attempt = %v, want a refusal naming attempts[1].terminal", err)
	}
	if buf.Len() != 0 {
		t.Errorf("Encode wrote %d bytes of a refused file", buf.Len())
	}
}

// TestEncodeWritesMarkupAsItIs checks that < > & in a run's text are written as themselves,
// not as six-byte escapes that could push a file the importer took over its size limit on
// the way back out.
func TestEncodeWritesMarkupAsItIs(t *testing.T) {
	f := goodFile()
	f.Run.Attempts[0].Reason = `no <button> "Save & close"`
	var buf bytes.Buffer
	if err := EncodeFile(&buf, f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `no <button> \"Save & close\"`) || strings.Contains(buf.String(), `\u003c`) {
		t.Errorf("the reason was written escaped: %s", buf.String()[:min(buf.Len(), 400)])
	}
	back, err := Decode(&buf)
	if err != nil || back.Run.Attempts[0].Reason != f.Run.Attempts[0].Reason {
		t.Errorf("read back: %v, reason %q", err, back.Run.Attempts[0].Reason)
	}
}
