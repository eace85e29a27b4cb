package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"time"

	"observatory/backend/agent"
)

// Decode reads one run file from r, reading at most MaxBytes, and refuses it with an *Error
// unless it is exactly one JSON object of a known schema version with every field present,
// well typed and known, and within the limits (see docs/runfile.md). Read errors are returned
// as they are.
func Decode(r io.Reader) (File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return File{}, err
	}
	if len(data) > MaxBytes {
		return File{}, refuse("", "the file is larger than the %d MiB limit", MaxBytes>>20)
	}
	v, rerr := parse(data)
	if rerr != nil {
		return File{}, rerr
	}
	if rerr := checkStrict(data); rerr != nil {
		return File{}, rerr
	}
	if rerr := checkSchema(v); rerr != nil {
		return File{}, rerr
	}
	f, rerr := decodeVersion(data, v)
	if rerr != nil {
		return File{}, rerr
	}
	if rerr := validate(f, time.Now()); rerr != nil {
		return File{}, rerr
	}
	return f, nil
}

// decodeVersion checks the document v (parsed from data) against its version's shape and
// maps it to the domain.
func decodeVersion(data []byte, v any) (File, *Error) {
	if v.(map[string]any)["schema"] == SchemaV1 {
		var f fileV1
		if err := decodeShaped(data, v, &f); err != nil {
			return File{}, err
		}
		run := f.Run.toDomain()
		for _, a := range f.Attempts {
			run.Attempts = append(run.Attempts, a.toDomain(f.Run.Lab))
		}
		return File{Schema: f.Schema, Exported: f.Exported, Run: run}, nil
	}
	var f fileV2
	if err := decodeShaped(data, v, &f); err != nil {
		return File{}, err
	}
	if err := checkFrames(f); err != nil {
		return File{}, err
	}
	run := f.Run.toDomain()
	run.Attempts = mapSlice(f.Attempts, attemptV2.toDomain)
	return File{Schema: f.Schema, Exported: f.Exported, Run: run, Shard: ptr(f.Run.Shard, shardV2.toDomain),
		Shards: mapSlice(f.Run.Shards, mergedShardV2.toDomain)}, nil
}

// decodeShaped checks v against the type dst points to, then decodes data into it.
func decodeShaped(data []byte, v any, dst any) *Error {
	if rerr := checkShape(v, reflect.TypeOf(dst).Elem(), ""); rerr != nil {
		return rerr
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return refuse("", "%v", err)
	}
	return nil
}

// parse decodes exactly one JSON value, numbers kept as json.Number.
func parse(data []byte) (any, *Error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return nil, refuse("", "not JSON: the file is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, refuseAt(data, int64(len(data)), "not JSON: the document ends early (is the file truncated?)")
	case errors.As(err, &syn):
		return nil, refuseAt(data, syn.Offset, "not JSON: %v", err)
	case err != nil:
		return nil, refuse("", "not JSON: %v", err)
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return nil, refuseAt(data, int64(len(data)-len(rest)), "trailing data after the JSON document")
	}
	return v, nil
}

// checkSchema refuses anything but an object naming a known schema version, before the rest
// of the shape is checked against that version.
func checkSchema(v any) *Error {
	obj, ok := v.(map[string]any)
	if !ok {
		return refuse("", "want a JSON object with schema, exported, run and attempts; got %s", jsonKind(v))
	}
	s, present := obj["schema"]
	if !present {
		return refuse("schema", "missing field: a run file names its format version, %q", Schema)
	}
	name, ok := s.(string)
	if !ok {
		return mistyped("schema", "a string", s)
	}
	if !slices.Contains(KnownSchemas, name) {
		return unknownSchema(name)
	}
	return nil
}

// checkFrames refuses a target nested in more frames than a target can name
// (agent.MaxFrameDepth), in a plan or a step, before the frames are mapped to the domain's
// fixed-size path.
func checkFrames(f fileV2) *Error {
	deep := func(p string, a actionV2) *Error {
		if n := len(a.Target.Frame); n > agent.MaxFrameDepth {
			return refuse(p+".target.frame", "%d frames nested: at most %d", n, agent.MaxFrameDepth)
		}
		return nil
	}
	for i, a := range f.Attempts {
		at := fmt.Sprintf("attempts[%d]", i)
		for j, pa := range a.Plan {
			if err := deep(fmt.Sprintf("%s.plan[%d]", at, j), pa); err != nil {
				return err
			}
		}
		for j, s := range a.Steps {
			if err := deep(fmt.Sprintf("%s.steps[%d].action", at, j), s.Action); err != nil {
				return err
			}
			if r := s.Reconciliation; r != nil && r.Retry != nil {
				if err := deep(fmt.Sprintf("%s.steps[%d].reconciliation.retry", at, j), *r.Retry); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
