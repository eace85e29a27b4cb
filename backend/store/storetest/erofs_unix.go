//go:build unix

package storetest

import (
	"errors"
	"syscall"
)

func isReadOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }
