(places) => {
  // Runs in every document before its own scripts: remembers what the page announces (text
  // shown in a status, an <output> or an aria-live region, alerts aside), and what the task's
  // named notice places show (places: [{id, test_id | css}]), so that an observation sees a
  // toast that came and went between two looks. It only listens: the page and its DOM are
  // left as they are. Read by observe.js.
  const key = Symbol.for("observatory.announced");
  if (window[key]) return;
  const named = (places || []).map((p) => ({
    id: p.id,
    selector: p.test_id ? `[data-testid="${CSS.escape(p.test_id)}"]` : p.css,
  }));
  // items are the announcements heard, newest last: the page's own ({text}) and the named
  // places' ({place, text}).
  const heard = { seq: 0, items: [], places: named };
  Object.defineProperty(window, key, { value: heard });
  const selector = '[role=status], output, [aria-live]:not([aria-live="off"], [role=alert])';
  const last = new Map();
  const remember = (place, region) => {
    const shown = region && region.checkVisibility({ visibilityProperty: true }) && !region.closest("[aria-hidden=true]");
    const text = shown ? (region.innerText || region.textContent || "").replace(/\s+/g, " ").trim() : "";
    if (!text || last.get(place) === text) return;
    last.set(place, text);
    heard.items.push(place ? { seq: ++heard.seq, place, text } : { seq: ++heard.seq, text });
    if (heard.items.length > 20 + 4 * named.length) heard.items.shift();
  };
  const within = (el, sel) => {
    try { return el.closest(sel); } catch { return null; } // a selector the page's CSS cannot parse finds nothing
  };
  const note = (node) => {
    const el = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    if (!el) return;
    remember("", within(el, selector));
    for (const p of named) remember(p.id, within(el, p.selector));
  };
  // A form submitted, or a link followed, in this document: it is about to be replaced, and
  // an observation waits for its successor rather than read it (see observe.js).
  const leaving = { event: null };
  Object.defineProperty(window, Symbol.for("observatory.leaving"), { value: leaving });
  const here = (target) => !target || target === "_self";
  window.addEventListener("submit", (e) => {
    if (here(e.target.target)) leaving.event = e;
  });
  window.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
    if (a && here(a.target) && !a.hasAttribute("download") && !a.getAttribute("href").startsWith("#")) leaving.event = e;
  });
  new MutationObserver((records) => {
    for (const r of records) {
      note(r.target);
      r.addedNodes.forEach(note);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["hidden", "style", "class", "aria-hidden"] });
}
