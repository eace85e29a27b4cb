// Package tampertest makes, from the honest run file of a task-file run (one whose run
// carries the task document as spec and each attempt the oracles' raw answers), the variants
// that verify and import must tell apart: the honest file, an oracle's answer tampered with,
// a condition's verdict flipped, an expression the carried document cannot compile, an answer
// for a condition the task does not ask, and an answer over the size limit. The tests of the
// command line and of the app's import put every variant through both.
package tampertest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"observatory/backend/bundle"
	"observatory/backend/runfile"
)

// Case is one variant of a run file and what verifying it must find.
type Case struct {
	Name string
	// File is the run file.
	File []byte
	// RefusedAt is where the file must be refused, a run file path such as
	// run.spec.success[0].http.expr; empty when it must be read and replayed.
	RefusedAt string
	// Attempt and Disagree are the attempt and the verdicts (runfile.Disagreement.Verdict)
	// the replay must find wrong; none for the honest file.
	Attempt  string
	Disagree []string
}

// doc is a run file decoded as plain JSON, numbers kept exact.
type doc = map[string]any

// Cases are the variants of honest, the honest file first. honest must be a version 2 run
// file whose first attempt's gate holds an HTTP condition recorded done, with its answer.
func Cases(honest []byte) ([]Case, error) {
	if _, err := decode(honest); err != nil {
		return nil, err
	}
	cases := []Case{{Name: "honest", File: honest}}
	for _, v := range []struct {
		name   string
		tamper func(doc) (Case, error)
	}{
		{"a tampered http answer", tamperAnswer},
		{"a flipped condition verdict", flipCondition},
		{"bad CEL in the carried task document", breakExpression},
		{"an answer for a condition the task does not ask", strayAnswer},
		{"an answer over the size limit", oversizeAnswer},
	} {
		d, _ := decode(honest)
		c, err := v.tamper(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.name, err)
		}
		c.Name = v.name
		if c.File, err = json.MarshalIndent(d, "", "  "); err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func decode(b []byte) (doc, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m doc
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("the run file is not JSON: %w", err)
	}
	if m["schema"] != runfile.Schema {
		return nil, fmt.Errorf("schema %v: want %s", m["schema"], runfile.Schema)
	}
	return m, nil
}

// first is the run file's first attempt.
func first(d doc) (doc, error) {
	atts, _ := d["attempts"].([]any)
	if len(atts) == 0 {
		return nil, errors.New("the run file has no attempts")
	}
	a, ok := atts[0].(doc)
	if !ok {
		return nil, errors.New("attempts[0] is not an object")
	}
	return a, nil
}

func list(m doc, key string) []doc {
	var out []doc
	items, _ := m[key].([]any)
	for _, it := range items {
		if o, ok := it.(doc); ok {
			out = append(out, o)
		}
	}
	return out
}

// httpDone is the first attempt, and the answer of an HTTP condition its gate recorded done.
func httpDone(d doc) (doc, doc, error) {
	a, err := first(d)
	if err != nil {
		return nil, nil, err
	}
	verdicts, _ := a["verdicts"].(doc)
	gate, _ := verdicts["gate"].(doc)
	done := map[string]bool{}
	for _, c := range list(gate, "conditions") {
		done[c["id"].(string)] = c["done"] == true
	}
	for _, ans := range list(a, "answers") {
		if ans["kind"] == "http" && done[ans["condition"].(string)] && ans["raw"] != nil {
			return a, ans, nil
		}
	}
	return nil, nil, errors.New("no HTTP condition of the first attempt's gate is recorded done with its answer")
}

// tamperAnswer empties the body an HTTP condition recorded done was judged on: recomputed,
// the condition no longer holds.
func tamperAnswer(d doc) (Case, error) {
	a, ans, err := httpDone(d)
	if err != nil {
		return Case{}, err
	}
	raw := ans["raw"].(doc)
	switch raw["body"].(type) {
	case []any:
		raw["body"] = []any{}
	case doc:
		raw["body"] = doc{}
	default:
		raw["body"] = ""
	}
	return Case{Attempt: a["attempt"].(string), Disagree: []string{"gate." + ans["condition"].(string)}}, nil
}

// flipCondition records the first gate condition's verdict the other way.
func flipCondition(d doc) (Case, error) {
	a, err := first(d)
	if err != nil {
		return Case{}, err
	}
	verdicts, _ := a["verdicts"].(doc)
	gate, _ := verdicts["gate"].(doc)
	conds := list(gate, "conditions")
	if len(conds) == 0 {
		return Case{}, errors.New("the first attempt's gate has no conditions")
	}
	conds[0]["done"] = conds[0]["done"] != true
	return Case{Attempt: a["attempt"].(string), Disagree: []string{"gate." + conds[0]["id"].(string)}}, nil
}

// breakExpression misspells the expression of the carried document's first HTTP condition.
func breakExpression(d doc) (Case, error) {
	run, _ := d["run"].(doc)
	spec, _ := run["spec"].(doc)
	for i, c := range list(spec, "success") {
		if h, ok := c["http"].(doc); ok {
			h["expr"] = "bdy == 200"
			return Case{RefusedAt: fmt.Sprintf("run.spec.success[%d].http.expr", i)}, nil
		}
	}
	return Case{}, errors.New("the carried task document has no HTTP condition in its gate")
}

// strayAnswer names the first answer after a condition the task does not have.
func strayAnswer(d doc) (Case, error) {
	a, err := first(d)
	if err != nil {
		return Case{}, err
	}
	answers := list(a, "answers")
	if len(answers) == 0 {
		return Case{}, errors.New("the first attempt has no answers")
	}
	answers[0]["condition"] = "not-in-the-task"
	return Case{RefusedAt: "attempts[0]"}, nil
}

// oversizeAnswer makes the first answer one byte-string longer than an answer may be.
func oversizeAnswer(d doc) (Case, error) {
	a, err := first(d)
	if err != nil {
		return Case{}, err
	}
	answers := list(a, "answers")
	if len(answers) == 0 {
		return Case{}, errors.New("the first attempt has no answers")
	}
	answers[0]["raw"] = doc{"status": 200, "body": strings.Repeat("x", runfile.MaxAnswerBytes)}
	delete(answers[0], "error")
	return Case{RefusedAt: "attempts[0].answers[0].raw"}, nil
}

// Bundle is the bundle from (a .zip that `observatory export RUN -o FILE.zip` wrote; nil for
// none) with runFile in place of its run file: the same media, another run file.
func Bundle(from, runFile []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name string, r io.Reader) error {
		w, err := zw.Create(name)
		if err == nil {
			_, err = io.Copy(w, r)
		}
		return err
	}
	if err := put(bundle.RunFile, bytes.NewReader(runFile)); err != nil {
		return nil, err
	}
	if from != nil {
		zr, err := zip.NewReader(bytes.NewReader(from), int64(len(from)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if f.Name == bundle.RunFile || f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			err = put(f.Name, rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
