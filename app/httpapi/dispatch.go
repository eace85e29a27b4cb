package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"

	"observatory/app/apierror"
)

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// dispatcher calls exported methods of bound service values by name, the way Wails does:
// arguments arrive as a JSON array, and a method may return nothing, a value, an error, or
// a value and an error.
type dispatcher struct {
	services map[string]reflect.Value
}

func newDispatcher(services ...any) *dispatcher {
	d := &dispatcher{services: map[string]reflect.Value{}}
	for _, s := range services {
		v := reflect.ValueOf(s)
		d.services[reflect.Indirect(v).Type().Name()] = v
	}
	return d
}

func (d *dispatcher) call(service, method string, rawArgs []byte) (any, error) {
	svc, ok := d.services[service]
	if !ok {
		return nil, &apierror.Error{Kind: apierror.NotFound, Message: fmt.Sprintf("no service %q", service)}
	}
	m := svc.MethodByName(method)
	if !m.IsValid() {
		return nil, &apierror.Error{Kind: apierror.NotFound, Message: fmt.Sprintf("service %s has no method %q", service, method)}
	}
	var raw []json.RawMessage
	if len(rawArgs) > 0 {
		if err := json.Unmarshal(rawArgs, &raw); err != nil {
			return nil, &apierror.Error{Kind: apierror.Invalid, Message: fmt.Sprintf("%s.%s: the arguments must be a JSON array: %v", service, method, err)}
		}
	}
	t := m.Type()
	if len(raw) != t.NumIn() {
		return nil, &apierror.Error{Kind: apierror.Invalid, Message: fmt.Sprintf("%s.%s takes %d arguments, got %d", service, method, t.NumIn(), len(raw))}
	}
	args := make([]reflect.Value, len(raw))
	for i, r := range raw {
		p := reflect.New(t.In(i))
		if err := json.Unmarshal(r, p.Interface()); err != nil {
			return nil, &apierror.Error{Kind: apierror.Invalid, Message: fmt.Sprintf("%s.%s argument %d: %v", service, method, i+1, err)}
		}
		args[i] = p.Elem()
	}
	return results(m.Call(args))
}

// results maps a method's return values to (value, error).
func results(out []reflect.Value) (any, error) {
	var value any
	for _, o := range out {
		if o.Type().Implements(errorType) && o.Type() == errorType {
			if !o.IsNil() {
				return nil, o.Interface().(error)
			}
			continue
		}
		value = o.Interface()
	}
	return value, nil
}
