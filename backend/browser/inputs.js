([binding, nonce, probes], observe) => {
  // Records the inputs a person or an outside agent makes in the page, as Playwright's codegen
  // records them: capture-phase listeners on the window that only read, each input reported
  // to the binding with its target's role, accessible name and box, when it happened, and the
  // page as it was then (observe.js's sample, read before the input's default action).
  //
  // It runs in an isolated world of its own (see WatchInputs), which the page's scripts and a
  // client's evaluations in the page cannot reach: the binding exists only here, so nothing
  // outside can call, replace or delete it. Only events the browser reports as trusted count
  // (a script's dispatched event does not), read through the browser's own isTrusted getter,
  // which no object can imitate. Each report carries nonce, which only this script knows,
  // so that a call to the binding from anywhere else is refused by Observatory.
  const send = globalThis[binding];
  if (typeof send !== "function") return;
  const stringify = JSON.stringify, now = () => performance.timeOrigin + performance.now();
  const trustedGet = Object.getOwnPropertyDescriptor(new Event("x"), "isTrusted").get;
  const trusted = (e) => { try { return trustedGet.call(e) === true; } catch { return false; } };
  // look is the page as it is now, as observe.js reads it; empty when it cannot be read.
  const look = () => {
    try {
      const r = observe([probes, { origin: 0, seq: 0 }]);
      return r && typeof r === "object" ? r.sample : "";
    } catch { return ""; }
  };
  const mark = Symbol.for("observatory.recorder." + binding);
  // record listens to the inputs made in the window's document while me is the set that
  // reports: a window's listeners may outlive the document they were added in.
  const record = (me) => {
    const on = (type, f, any) => addEventListener(type, (e) => {
      if (globalThis[mark] === me && (any || trusted(e))) f(e);
    }, true);
    const filled = new WeakMap(); // the value each field was last reported with
    const pending = new Set(); // fields typed into and not reported yet
    const started = new WeakMap(); // when typing into each pending field began, and the page then
    let pressed = null; // the page when the pointer last went down, for the click it starts
    const report = (kind, el, value, then, untrusted) => {
      let target = { role: "", name: "", box: {} };
      try {
        const r = el.getBoundingClientRect(), ro = role(el);
        target = { role: ro, name: name(el, ro),
          box: { x: r.x, y: r.y, width: r.width, height: r.height, viewport_width: innerWidth, viewport_height: innerHeight } };
      } catch {} // a page that broke the DOM's methods still has its input recorded
      let body = "";
      try {
        body = stringify({ kind, ...target, value: value ?? "", url: location.href, at: then.at,
          before: then.before, untrusted: Boolean(untrusted) });
      } catch {
        body = stringify({ kind, value: "", url: "", at: then.at, before: "" });
      }
      send(nonce + body);
    };
    const moment = () => ({ at: now(), before: look() });
    const valueOf = (el) =>
      el.tagName === "SELECT" ? Array.from(el.selectedOptions, (o) => o.value).join(",")
      : el.isContentEditable ? el.innerText
      : el.type === "password" ? "" : el.value;
    // changed reports el's value once per value: typing ends in a fill, a choice in a select.
    const changed = (kind, el, then, untrusted) => {
      pending.delete(el);
      const began = started.get(el);
      started.delete(el);
      const v = valueOf(el);
      if (filled.get(el) === v) return;
      filled.set(el, v);
      report(kind, el, v, began || then || moment(), untrusted);
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
    // typing is about to change el: the page before the first key is the fill's before. That
    // typing began is reported at once (the fill itself once it ends), so that the input
    // before it is not looked at after it.
    const typing = (el) => {
      if (!el || !fillable(el) || pending.has(el) || started.has(el)) return;
      const then = moment();
      started.set(el, then);
      send(nonce + stringify({ kind: "began", at: then.at, before: then.before }));
    };
    on("beforeinput", (e) => typing(element(e)));
    on("input", (e) => {
      const el = element(e);
      if (el && fillable(el)) { typing(el); pending.add(el); }
    });
    on("pointerdown", () => { flush(); pressed = moment(); });
    on("click", (e) => {
      const then = pressed || moment();
      pressed = null;
      const el = element(e) && control(element(e));
      if (!el) return;
      flush();
      if (el.tagName === "SELECT" || el.tagName === "OPTION" || fillable(el)) return;
      report("click", el, "", then);
    });
    on("change", (e) => {
      const el = element(e);
      if (!el) return;
      // Clients choose options by script (Playwright's selectOption, Puppeteer's select), so a
      // select's change counts whoever sent it, once per value, marked untrusted when the
      // browser did not report it as a user's; a field's only when the browser sent it.
      if (el.tagName === "SELECT") { flush(); changed("select", el, null, !trusted(e)); }
      else if (trusted(e) && fillable(el)) changed("fill", el);
    }, true);
    on("keydown", (e) => {
      const el = element(e) && control(element(e));
      if (!el) return;
      if (!["Enter", "Escape", "Tab"].includes(e.key)) { typing(element(e)); return; }
      const then = moment(); // before its default action (a submit, a closed dialog)
      flush(); // Enter submits what was typed before change fires: the fill comes first
      report("press", el, e.key, then);
    });
  };
  // listen records the inputs of the window's document of the moment, once.
  const listen = () => {
    if (globalThis[mark] && globalThis[mark].doc === document) return;
    const me = { doc: document };
    Object.defineProperty(globalThis, mark, { value: me, configurable: true });
    record(me);
  };
  listen();
}
