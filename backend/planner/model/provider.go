package model

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// connectTimeout bounds connecting to a model's API (TCP and TLS): an address that takes
// longer answers nothing, and the request's own timeout is for the model's thinking.
const connectTimeout = 10 * time.Second

// httpClient is the HTTP client a provider's SDK sends with: its own transport, so no
// connection is shared between providers, and connecting bounded by connectTimeout.
func httpClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = connectTimeout
	return &http.Client{Transport: t}
}

// provider is one model behind its API: it answers a request with one response. Adapters
// translate the conversation to their SDK's types and their errors to *providerError.
type provider interface {
	complete(ctx context.Context, req request) (response, error)
}

// errKind is what the planner does about a provider error.
type errKind int

const (
	// errTransient (a timeout, a 5xx, a dropped connection) is retried on the same model.
	errTransient errKind = iota
	// errRefused (a rate limit, exhausted quota, a refusal) rotates to the next model; when
	// every model has refused, the planner waits and tries again.
	errRefused
	// errBroken (a bad key, an unknown model, a request the API rejects) rotates to the next
	// model for good; when every model is broken, planning ends.
	errBroken
)

func (k errKind) String() string {
	return [...]string{"transient", "refused", "broken"}[k]
}

// providerError is a classified failure of one request.
type providerError struct {
	Kind   errKind
	Status int // the HTTP status, 0 when none came back
	// Message is the provider's explanation, cut short, with the key masked.
	Message string
	// RetryAfter is the provider's Retry-After, when it sent one.
	RetryAfter time.Duration
	// NoAnswer means the API never answered: it could not be reached, or said nothing
	// within the request's timeout. Once the retries are spent the model is broken, not
	// waited for: an address that does not answer will not start to.
	NoAnswer bool
}

func (e *providerError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Message)
}

// httpError classifies an API error by its status: 408, 409 and 5xx are transient; 402 and
// 429 (rate limits and quota) are refusals; any other 4xx is broken.
func httpError(status int, message string, header http.Header, key string) *providerError {
	e := &providerError{Status: status, Message: redact(message, key)}
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusPaymentRequired:
		e.Kind = errRefused
	case status == http.StatusRequestTimeout || status == http.StatusConflict || status >= 500:
		e.Kind = errTransient
	default:
		e.Kind = errBroken
	}
	if header != nil {
		e.RetryAfter = retryAfter(header.Get("Retry-After"))
	}
	return e
}

// sdkError is the providerError for err, the error of a provider's SDK: httpError for an
// HTTP answer (the SDK's error type E, whose status, message and response answer reads),
// otherError for none. A message the answer left empty is its status's text.
func sdkError[E error](err error, answer func(E) (int, string, *http.Response), key string) *providerError {
	var apiErr E
	if !errors.As(err, &apiErr) {
		return otherError(err, key)
	}
	status, msg, res := answer(apiErr)
	var header http.Header
	if res != nil {
		header = res.Header
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	return httpError(status, msg, header, key)
}

// otherError is a failure with no HTTP answer (a connection refused or dropped, a body that
// would not decode): transient; NoAnswer when the request never got a response.
func otherError(err error, key string) *providerError {
	var uerr *url.Error
	return &providerError{Kind: errTransient, Message: redact(err.Error(), key), NoAnswer: errors.As(err, &uerr)}
}

// retryAfter reads a Retry-After header given in seconds; 0 when absent or a date.
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// redact cuts a provider's message to a line's length and masks the key wherever it shows.
func redact(msg, key string) string {
	if key != "" {
		msg = strings.ReplaceAll(msg, key, "••••••")
	}
	return clip(strings.Join(strings.Fields(msg), " "), 300)
}

// newProvider builds the adapter for m with its key read from the keyring or the
// environment (see apiKey) and its base URL resolved (see withEnvBaseURL), and returns m as
// resolved.
// asked is the models something asks in order, each with its provider, made once.
type asked struct {
	models    []ModelConfig
	providers []provider
	// broken holds, per model, why its provider could not be made (its key is not set).
	broken []error
}

// askModels makes the provider of each of models: a model whose key is missing keeps why in
// broken, and is not asked.
func askModels(models []ModelConfig) asked {
	a := asked{models: slices.Clone(models), providers: make([]provider, len(models)), broken: make([]error, len(models))}
	for i, m := range models {
		a.providers[i], a.models[i], a.broken[i] = newProvider(m)
	}
	return a
}

func newProvider(m ModelConfig) (provider, ModelConfig, error) {
	m, err := m.withEnvBaseURL()
	if err != nil {
		return nil, m, err
	}
	key, err := apiKey(m)
	if err != nil {
		return nil, m, err
	}
	switch m.Provider {
	case ProviderOpenAI:
		return newOpenAI(m, key), m, nil
	case ProviderAnthropic:
		return newAnthropic(m, key), m, nil
	}
	return nil, m, fmt.Errorf("model %s: unknown provider %q", m.Name(), m.Provider)
}
