package runfile

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// checkShape checks a generically decoded JSON value (numbers as json.Number) against the Go
// type it must decode into: every field without omitempty present, no unknown field, every
// value of the right JSON type and in range. Arrays and objects may be null, as Go encodes
// nil slices and maps. It reports the first problem with its path.
func checkShape(v any, t reflect.Type, path string) *Error {
	if t == timeType {
		s, ok := v.(string)
		if !ok {
			return mistyped(path, "an RFC 3339 time string", v)
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return refuse(path, "%q is not an RFC 3339 time such as 2025-03-14T09:26:53Z", s)
		}
		return nil
	}
	if t == rawType {
		if v == nil {
			return nil
		}
		if _, ok := v.(map[string]any); !ok {
			return mistyped(path, "an object", v)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		if _, ok := v.(string); !ok {
			return mistyped(path, "a string", v)
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return mistyped(path, "true or false", v)
		}
	case reflect.Int, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return mistyped(path, "an integer", v)
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return refuse(path, "%s is not an integer in range", n)
		}
	case reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return mistyped(path, "a number", v)
		}
		if _, err := strconv.ParseFloat(string(n), 64); err != nil {
			return refuse(path, "%s is not a number in range", n)
		}
	case reflect.Slice:
		return checkArray(v, t, path)
	case reflect.Map:
		return checkMap(v, t, path)
	case reflect.Struct:
		return checkObject(v, t, path)
	case reflect.Pointer: // an optional object: null or absent is none
		if v == nil {
			return nil
		}
		return checkShape(v, t.Elem(), path)
	default:
		return refuse(path, "internal error: no shape rule for Go type %s", t)
	}
	return nil
}

func checkArray(v any, t reflect.Type, path string) *Error {
	if v == nil {
		return nil
	}
	items, ok := v.([]any)
	if !ok {
		return mistyped(path, "an array", v)
	}
	for i, item := range items {
		if err := checkShape(item, t.Elem(), index(path, i)); err != nil {
			return err
		}
	}
	return nil
}

func checkMap(v any, t reflect.Type, path string) *Error {
	if v == nil {
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return mistyped(path, "an object", v)
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if err := checkShape(obj[k], t.Elem(), child(path, k)); err != nil {
			return err
		}
	}
	return nil
}

func checkObject(v any, t reflect.Type, path string) *Error {
	obj, ok := v.(map[string]any)
	if !ok {
		return mistyped(path, "an object", v)
	}
	fields := jsonFields(t)
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.name == k }) {
			return refuse(child(path, k), "unknown field (a run file has only the documented fields of its version)")
		}
	}
	for _, f := range fields {
		val, present := obj[f.name]
		if !present {
			if f.optional {
				continue
			}
			return refuse(child(path, f.name), "missing field")
		}
		if err := checkShape(val, f.typ, child(path, f.name)); err != nil {
			return err
		}
	}
	return nil
}

// field is one JSON member of a struct type.
type field struct {
	name     string
	typ      reflect.Type
	optional bool
}

// jsonFields lists t's JSON members the way encoding/json does, flattening embedded structs.
func jsonFields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if (!sf.IsExported() && !sf.Anonymous) || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(sf.Type)...)
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out = append(out, field{name: name, typ: sf.Type, optional: slices.Contains(strings.Split(opts, ","), "omitempty")})
	}
	return out
}

// mistyped refuses a value of the wrong JSON type.
func mistyped(path, want string, got any) *Error {
	return refuse(path, "want %s, got %s", want, jsonKind(got))
}

// jsonKind names a decoded value's JSON type.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "an unknown value"
}
