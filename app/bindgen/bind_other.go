//go:build !bindings

package main

import "errors"

// bind refuses without the bindings tag, where wails.Run would open a window instead.
func bind([]any) error {
	return errors.New("build with -tags bindings: go run -tags bindings ./app/bindgen <folder>")
}
