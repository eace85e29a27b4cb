package taskfile

import (
	"math"
	"reflect"
	"strings"
)

// treeDecoder is a format type that reads itself from a tree node (a union such as truth).
type treeDecoder interface {
	decodeTree(n *node, path string) error
}

// decode fills dst (a pointer) from n strictly: every key must be a field of the type, every
// value of the field's type; the first mismatch is an *Error at its path.
func decode(n *node, path string, dst any) error {
	return decodeValue(n, path, reflect.ValueOf(dst).Elem())
}

var treeDecoderType = reflect.TypeFor[treeDecoder]()

func decodeValue(n *node, path string, v reflect.Value) error {
	if v.CanAddr() && v.Addr().Type().Implements(treeDecoderType) {
		return v.Addr().Interface().(treeDecoder).decodeTree(n, path)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if n.kind == kNull {
			return want(n, path, v.Type().Elem())
		}
		p := reflect.New(v.Type().Elem())
		if err := decodeValue(n, path, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
	case reflect.String:
		if n.kind != kString {
			return want(n, path, v.Type())
		}
		v.SetString(n.s)
	case reflect.Bool:
		if n.kind != kBool {
			return want(n, path, v.Type())
		}
		v.SetBool(n.b)
	case reflect.Int:
		if n.kind != kInt {
			return want(n, path, v.Type())
		}
		if n.i < math.MinInt32 || n.i > math.MaxInt32 {
			return errAt(path, "the number %d is out of range", n.i)
		}
		v.SetInt(n.i)
	case reflect.Float64:
		switch n.kind {
		case kFloat:
			v.SetFloat(n.f)
		case kInt:
			v.SetFloat(float64(n.i))
		default:
			return want(n, path, v.Type())
		}
	case reflect.Slice:
		if n.kind != kList {
			return want(n, path, v.Type())
		}
		s := reflect.MakeSlice(v.Type(), len(n.items), len(n.items))
		for i, item := range n.items {
			if err := decodeValue(item, index(path, i), s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		if n.kind != kObject {
			return want(n, path, v.Type())
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.fields))
		for _, f := range n.fields {
			e := reflect.New(v.Type().Elem()).Elem()
			if err := decodeValue(f.val, join(path, f.key), e); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(f.key), e)
		}
		v.Set(m)
	case reflect.Struct:
		return decodeStruct(n, path, v)
	default:
		panic("taskfile: no decoding for " + v.Type().String()) // a format type's mistake
	}
	return nil
}

// decodeStruct fills a struct's fields by their JSON names; an unknown key is refused with
// the names the object may have.
func decodeStruct(n *node, path string, v reflect.Value) error {
	if n.kind != kObject {
		return want(n, path, v.Type())
	}
	t := v.Type()
	byName := map[string]int{}
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		byName[name] = i
		names = append(names, name)
	}
	for _, f := range n.fields {
		i, ok := byName[f.key]
		if !ok {
			if len(names) == 0 {
				return errAt(join(path, f.key), "unknown field; this object takes no fields")
			}
			return errAt(join(path, f.key), "unknown field; the fields here are %s", strings.Join(names, ", "))
		}
		if err := decodeValue(f.val, join(path, f.key), v.Field(i)); err != nil {
			return err
		}
	}
	return nil
}

// want is the error for a value of the wrong type.
func want(n *node, path string, t reflect.Type) *Error {
	var w string
	switch t.Kind() {
	case reflect.String:
		w = "a string"
	case reflect.Bool:
		w = "true or false"
	case reflect.Int:
		w = "a whole number"
	case reflect.Float64:
		w = "a number"
	case reflect.Slice:
		w = "a list"
	default:
		w = "an object"
	}
	got := n.kind.what()
	if n.kind == kFloat && t.Kind() == reflect.Int {
		got = "a fraction"
	}
	e := errAt(path, "want %s, got %s", w, got)
	if t.Kind() == reflect.String && (n.kind == kInt || n.kind == kFloat || n.kind == kBool) {
		e.Reason += " (quote it to make it text)"
	}
	return e
}
