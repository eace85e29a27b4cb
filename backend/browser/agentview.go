package browser

import (
	"context"
	"sync"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// What an agent that drives the page itself reads of it between its actions (an MCP
// client): the accessibility snapshot it names elements from, a screenshot and the tabs.
// Reading changes nothing on the page: no emulation, no viewport, no scroll.

// snapshotTimeoutMS bounds one accessibility snapshot.
const snapshotTimeoutMS = actionTimeoutMS

// AriaSnapshot is the page's accessibility snapshot as Playwright writes it for agents: YAML
// lines such as `- button "Reserve slot" [ref=e5]`. A ref names its element until the
// element's role or accessible name changes; the selector aria-ref=e5 finds it.
func (p *Page) AriaSnapshot(ctx context.Context) (string, error) {
	snap, err := call(ctx, p.limits(), func() (string, error) {
		return p.driven().AriaSnapshot(playwright.PageAriaSnapshotOptions{Mode: playwright.AriaSnapshotModeAi,
			Timeout: playwright.Float(snapshotTimeoutMS)})
	})
	return snap, p.fail("snapshot the page", err)
}

// Screenshot is a PNG of the page's viewport as it is now.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	png, err := call(ctx, p.limits(), func() ([]byte, error) {
		return p.driven().Screenshot(playwright.PageScreenshotOptions{Type: playwright.ScreenshotTypePng,
			Timeout: playwright.Float(snapshotTimeoutMS)})
	})
	return png, p.fail("take a screenshot", err)
}

// Tab is one page of the attempt's browser context.
type Tab struct {
	URL, Title string
	// Current is the page the attempt drives.
	Current bool
}

// Tabs lists the pages of the attempt's browser context, the driven one marked, each title
// read as it is now: never kept from an earlier listing, since a page's script may change
// it without a navigation. With several tabs the titles are read all at once, so a listing
// costs about one round trip to the driver, not one per tab.
func (p *Page) Tabs(ctx context.Context) ([]Tab, error) {
	tabs, err := call(ctx, p.limits(), func() ([]Tab, error) {
		pages, driven := p.bc.Pages(), p.driven()
		out := make([]Tab, len(pages))
		errs := make([]error, len(pages))
		var wg sync.WaitGroup
		for i, pg := range pages {
			out[i] = Tab{URL: pg.URL(), Current: pg == driven}
			wg.Go(func() { out[i].Title, errs[i] = pg.Title() })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	})
	return tabs, p.fail("list the tabs", err)
}

// frameAttrsJS reads what names an iframe: its title, name, id and src attributes, each only
// when no other frame of its document has the same (a frame path takes the first frame a
// name matches, so a name two frames share would name another one).
const frameAttrsJS = `(el) => {
  const frames = [...el.ownerDocument.querySelectorAll("iframe, frame")];
  const own = (attr) => {
    const v = el.getAttribute(attr) || "";
    return v !== "" && frames.filter((f) => f.getAttribute(attr) === v).length === 1 ? v : "";
  };
  return { title: own("title"), name: own("name"), id: own("id"), src: own("src") };
}`

// FrameOf names the iframe that ref, a ref of the page's latest accessibility snapshot, is,
// as a target's frame path names it: by its title, else its name, id or src, whichever no
// other frame beside it has, else (an iframe with none of them, such as one written from
// srcdoc, or twins) by the ref itself.
func (p *Page) FrameOf(ctx context.Context, ref string) (agent.FrameRef, error) {
	raw, err := p.evaluateOne(ctx, p.driven().Locator("aria-ref="+ref), frameAttrsJS, measureTimeoutMS)
	if err != nil {
		return agent.FrameRef{}, p.fail("read the iframe "+ref, err)
	}
	var attrs struct{ Title, Name, ID, Src string }
	if err := remarshal(raw, &attrs); err != nil {
		return agent.FrameRef{}, err
	}
	switch {
	case attrs.Title != "":
		return agent.FrameRef{Title: attrs.Title}, nil
	case attrs.Name != "":
		return agent.FrameRef{Name: attrs.Name}, nil
	case attrs.ID != "":
		return agent.FrameRef{CSS: ":is(iframe, frame)[id=" + cssString(attrs.ID) + "]"}, nil
	case attrs.Src != "":
		return agent.FrameRef{CSS: ":is(iframe, frame)[src=" + cssString(attrs.Src) + "]"}, nil
	}
	return agent.FrameRef{CSS: "aria-ref=" + ref}, nil
}
