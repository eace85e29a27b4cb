package jsonstrict

import (
	"bytes"
	"encoding"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Unmarshal checks data with Check, then refuses it with an *Error if an object that
// decodes into a struct names a member by a key that is not exactly one of the struct's
// JSON names but that encoding/json would still match to one, ignoring case ("Video" for
// "video", or "\u212a" for "k"): encoding/json fills the field from whichever such key
// comes last, so {"video": false, "Video": true} passes Check yet sets video to true. Only
// then does it decode data into v (a non-nil pointer) with encoding/json.
//
// Keys of maps, and of values a type decodes itself (json.Unmarshaler, such as
// json.RawMessage and time.Time, or encoding.TextUnmarshaler), are the document's own and
// compared exactly by Check alone. Keys that match no field at all are left to the caller,
// as encoding/json leaves them: ignored.
func Unmarshal(data []byte, v any) error {
	if err := Check(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return refuse("", "not JSON: %v", err)
	}
	if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.Pointer {
		if err := checkNames(doc, t.Elem(), ""); err != nil {
			return err
		}
	}
	return json.Unmarshal(data, v)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checkNames walks doc (decoded generically) along the Go type t it decodes into, refusing
// the first struct member named by a key that only case-folds to the field's name.
func checkNames(doc any, t reflect.Type, path string) *Error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := doc.(map[string]any)
		if !ok {
			return nil // encoding/json refuses the type itself
		}
		fields := structFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if ft, ok := fields[k]; ok {
				if err := checkNames(obj[k], ft, child(path, k)); err != nil {
					return err
				}
				continue
			}
			for name := range fields {
				if strings.EqualFold(name, k) {
					return refuse(child(path, k), "the key %q is not the field %q, which differs only in case: keys are exact", k, name)
				}
			}
		}
	case reflect.Map:
		if obj, ok := doc.(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				if err := checkNames(obj[k], t.Elem(), child(path, k)); err != nil {
					return err
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if items, ok := doc.([]any); ok {
			for i, item := range items {
				if err := checkNames(item, t.Elem(), index(path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// structFields maps each JSON name of struct type t to its field's type, the way
// encoding/json names them: the json tag's name, else the Go name; "-" skipped; the fields
// of an embedded struct without a tag name promoted.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for n, typ := range structFields(ft) {
				if _, shadowed := out[n]; !shadowed {
					out[n] = typ
				}
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out[name] = sf.Type
	}
	return out
}
