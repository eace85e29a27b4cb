package oracle

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"

	"observatory/backend/agent"
)

// ErrRefused is an HTTP condition's connection refused: nothing listens where it asks, and
// asking again does not change that while the attempt runs.
var ErrRefused = errors.New("the connection was refused")

// netWords says in words why a request got no answer, once: Go's *url.Error repeats the
// method and URL the caller already names, and its dial errors read as system calls. A
// refused connection wraps ErrRefused; what it does not recognise it returns without the
// repetition.
func netWords(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		if errors.As(err, &op) && op.Addr != nil {
			return fmt.Errorf("%w: nothing listens at %s", ErrRefused, op.Addr)
		}
		return ErrRefused
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Errorf("no such host: %s", dns.Name)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, syscall.ETIMEDOUT):
		return errors.New("no answer came in the time allowed")
	case errors.Is(err, syscall.ECONNRESET):
		return errors.New("the connection was closed before the answer came")
	}
	return err
}

// Refused reports whether a recorded answer is a refused connection (see ErrRefused).
func Refused(a agent.Answer) bool {
	return strings.Contains(a.Error, ErrRefused.Error())
}
