package browser

import (
	"context"
	_ "embed"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/domsnap"
)

// domSnapJS serializes the page's DOM with what its markup does not hold (see domsnap.js).
//
//go:embed domsnap.js
var domSnapJS string

// domCopy is the page's DOM as the browser serialized it, or, past what is read, its length.
type domCopy struct {
	html   string
	length int
}

// copyDOM serializes the page's DOM in one round trip, reading at most four times what a
// snapshot may keep (a copy shrinks as its scripts go).
func (p *Page) copyDOM(ctx context.Context) (domCopy, error) {
	raw, err := call(ctx, p.limits(), func() (any, error) { return p.driven().Evaluate(domSnapJS, 4*agent.MaxDOMBytes) })
	if err != nil {
		return domCopy{}, p.fail("copy the page's DOM", err)
	}
	switch v := raw.(type) {
	case string:
		return domCopy{html: v, length: len(v)}, nil
	case int:
		return domCopy{length: v}, nil
	case float64:
		return domCopy{length: int(v)}, nil
	}
	return domCopy{}, fmt.Errorf("copy the page's DOM: the script returned %T", raw)
}

// storeDOM makes d a static copy (see domsnap.Inert), secrets masked, and stores it; a copy
// past agent.MaxDOMBytes is not kept, and skipped says so.
func (p *Page) storeDOM(d domCopy) (name, skipped string, err error) {
	tooLarge := func(n int) string {
		return fmt.Sprintf("the page's DOM was %.1f MiB, more than the %d MiB a snapshot keeps", float64(n)/(1<<20), agent.MaxDOMBytes>>20)
	}
	if d.html == "" && d.length > 0 {
		return "", tooLarge(d.length), nil
	}
	p.mu.Lock()
	secrets := p.secrets
	p.mu.Unlock()
	inert, err := domsnap.Inert(d.html, secrets)
	if err != nil {
		return "", "", err
	}
	if len(inert) > agent.MaxDOMBytes {
		return "", tooLarge(len(inert)), nil
	}
	name, err = p.store(inert, agent.DOMExt)
	return name, "", err
}

// KeepSecret implements agent.SecretKeeper: DOM snapshots taken from now on mask values.
func (p *Page) KeepSecret(values ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.secrets = append(p.secrets, values...)
	p.lastShot = storedShot{} // the next frame must be taken with the secret masked
}
