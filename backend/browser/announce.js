(() => {
  // Runs in every document before its own scripts: remembers what the page announces (text
  // shown in a status, an <output> or an aria-live region, alerts aside), so that an
  // observation sees a toast that came and went between two looks. It only listens: the
  // page and its DOM are left as they are. Read by observe.js.
  const key = Symbol.for("observatory.announced");
  if (window[key]) return;
  const heard = { seq: 0, items: [] };
  Object.defineProperty(window, key, { value: heard });
  const selector = '[role=status], output, [aria-live]:not([aria-live="off"], [role=alert])';
  const note = (node) => {
    const el = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    const region = el && el.closest(selector);
    const shown = region && region.checkVisibility({ visibilityProperty: true }) && !region.closest("[aria-hidden=true]");
    const text = shown ? (region.innerText || region.textContent || "").replace(/\s+/g, " ").trim() : "";
    if (!text || heard.items.at(-1)?.text === text) return;
    heard.items.push({ seq: ++heard.seq, text });
    if (heard.items.length > 20) heard.items.shift();
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
})();
