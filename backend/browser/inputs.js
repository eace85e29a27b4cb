(mark) => {
  // Records the inputs a person or an outside agent makes in the page, as Playwright's codegen
  // records them: capture-phase listeners on the window that only read (so they run before
  // any of the page's own, which it adds later), each input reported to the binding
  // __observatoryInput with its target's role, accessible name and box. It never changes the
  // page. The window remembers, under mark (a name chosen anew by each Observatory process, so
  // a page cannot know it), which of its listener sets reports, so that one does per document.
  // record listens to the inputs made in the window's document while me is the set that
  // reports: a window's listeners may outlive the document they were added in (see below).
  const record = (me) => {
    const on = (type, f) => addEventListener(type, (e) => { if (window[mark] === me) f(e); }, true);
    const filled = new WeakMap(); // the value each field was last reported with
    const pending = new Set(); // fields typed into and not reported yet
    const report = (kind, el, value) => {
      const r = el.getBoundingClientRect();
      const ro = role(el);
      window.__observatoryInput({
        kind, role: ro, name: name(el, ro), value: value ?? "", url: location.href,
        at: performance.timeOrigin + performance.now(),
        box: { x: r.x, y: r.y, width: r.width, height: r.height, viewport_width: innerWidth, viewport_height: innerHeight },
      });
    };
    const valueOf = (el) =>
      el.tagName === "SELECT" ? Array.from(el.selectedOptions, (o) => o.value).join(",")
      : el.isContentEditable ? el.innerText
      : el.type === "password" ? "" : el.value;
    // changed reports el's value once per value: typing ends in a fill, a choice in a select.
    const changed = (kind, el) => {
      pending.delete(el);
      const v = valueOf(el);
      if (filled.get(el) === v) return;
      filled.set(el, v);
      report(kind, el, v);
    };
    // flush reports what was typed before any other input, in the order it happened.
    const flush = () => { for (const el of [...pending]) if (el.isConnected) changed("fill", el); pending.clear(); };
    // The element a click lands on is often inside the control (a span in a button): report the
    // nearest ancestor with a role, as a person would name what they clicked.
    const control = (el) => {
      for (let e = el; e && e.nodeType === Node.ELEMENT_NODE; e = e.parentElement) {
        if (role(e)) return e;
      }
      return el;
    };
    const fillable = (el) =>
      el.tagName === "TEXTAREA" || el.isContentEditable ||
      (el.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset", "image", "file"].includes(el.type));
    const element = (e) => (e.composedPath()[0] instanceof Element ? e.composedPath()[0] : null);
    on("input", (e) => {
      const el = element(e);
      if (e.isTrusted && el && fillable(el)) pending.add(el);
    });
    on("pointerdown", (e) => { if (e.isTrusted) flush(); });
    on("click", (e) => {
      const el = e.isTrusted && element(e) && control(element(e));
      if (!el) return;
      flush();
      if (el.tagName === "SELECT" || el.tagName === "OPTION" || fillable(el)) return;
      report("click", el);
    });
    on("change", (e) => {
      const el = element(e);
      if (!el) return;
      // Clients choose options by script (Playwright's selectOption, Puppeteer's select), so a
      // select's change counts whoever sent it; a field's only when the browser sent it.
      if (el.tagName === "SELECT") { flush(); changed("select", el); }
      else if (e.isTrusted && fillable(el)) changed("fill", el);
    });
    on("keydown", (e) => {
      const el = e.isTrusted && element(e) && control(element(e));
      if (!el || !["Enter", "Escape", "Tab"].includes(e.key)) return;
      flush(); // Enter submits what was typed before change fires: the fill comes first
      report("press", el, e.key);
    });
  };
  // listen records the inputs of the window's document of the moment, once.
  const listen = () => {
    if (window[mark] && window[mark].doc === document) return;
    const me = { doc: document };
    Object.defineProperty(window, mark, { value: me, configurable: true });
    record(me);
  };
  listen();
  // A tab opened by window.open (or by a client such as Puppeteer) starts on an empty
  // about:blank document, and the page it then loads reuses that document's window: the
  // window's properties, timers and listeners survive, though a listener added in the empty
  // document may no longer report from the new one. When a client
  // lets the tab load before Playwright has added its scripts to it, this script may have run
  // in the empty document only. So while a window shows that first document, it watches for
  // the next one (for as long as a page load may take, Playwright's 30 s) and listens there as
  // soon as it is there.
  if (location.href === "about:blank") {
    const first = document, since = Date.now();
    const watch = setInterval(() => {
      if (document !== first) listen();
      if (document !== first || Date.now() - since > 30000) clearInterval(watch);
    }, 10);
  }
}
