package runfile

import (
	"errors"

	"observatory/backend/jsonstrict"
)

// checkStrict refuses a file that JSON readers could read differently: a key repeated in one
// object (at any depth, whatever its escaping), trailing data, or nesting past
// jsonstrict.MaxDepth; the refusal keeps jsonstrict's path.
func checkStrict(data []byte) *Error {
	var je *jsonstrict.Error
	if err := jsonstrict.Check(data); errors.As(err, &je) {
		return refuse(je.Path, "%s", je.Reason)
	} else if err != nil {
		return refuse("", "%v", err)
	}
	return nil
}
