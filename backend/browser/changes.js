(() => {
  // Runs in every document before its own scripts: counts everything that can change what
  // observe.js reads without a navigation, so that an observation of a page that has not
  // changed since the last one can be told so before it samples (see observe.js, unless). It only
  // counts: the page's DOM, events and values are left as they are.
  //
  // Counted: every DOM mutation (the document and every shadow root, open or closed, and
  // same-origin child frames, whose counts add up here); every event by which a person or
  // the page changes state without one (input, focus, pointer, keyboard, scrolling, a form's
  // submit or reset, a resource or font loaded, a toggle, an animation or a transition); and
  // the page's script setting a form control's value, checked state or validity.
  const key = Symbol.for("observatory.changes");
  if (window[key]) return;
  let parentCount = null;
  try {
    if (window.parent !== window) parentCount = window.parent[key] || null; // another origin throws
  } catch { /* another origin: not observed, its frame is not read */ }
  // The count and the observer are this script's own: the page can add to the count (its
  // next observation is then taken afresh) but neither reset nor read it otherwise.
  const id = Math.random().toString(36).slice(2); // tells this document from its successor
  let n = 0;
  // pending counts the page's requests by fetch or XMLHttpRequest that wait for their answer
  // (see settle.js): the browser's own word of a request can come after the page has moved on.
  let pending = 0;
  // answeredAt is when the last of them was answered (or failed), on the page's clock.
  let answeredAt = -Infinity;
  const answered = () => {
    pending--;
    answeredAt = performance.now();
  };
  const bump = () => {
    n++;
    if (parentCount) parentCount.bump();
  };
  const observer = new MutationObserver(bump);
  const take = MutationObserver.prototype.takeRecords;
  const options = { subtree: true, childList: true, characterData: true, attributes: true };
  const changes = Object.freeze({
    bump,
    // pending is how many of the document's fetches and XMLHttpRequests wait for their answer.
    pending: () => pending,
    // sinceAnswer is how long ago, in ms, the last of them was answered; Infinity for none.
    sinceAnswer: () => performance.now() - answeredAt,
    // watch observes a node's subtree; observing one again changes nothing.
    watch: (node) => observer.observe(node, options),
    // token says what this document is and how many changes it has counted, with the
    // address and the viewport's size and scroll, which change without a mutation or a
    // timely event.
    token: () => {
      if (take.call(observer).length) bump(); // made but not yet delivered
      return `${id}:${n}:${innerWidth}x${innerHeight}:${scrollX},${scrollY}:${location.href}`;
    },
  });
  Object.defineProperty(window, key, { value: changes });
  changes.watch(document);
  // wrap has proto's method name hand what it returns to then, declared as the browser's
  // own (not enumerable), under the same name.
  const wrap = (proto, name, then) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (typeof d?.value !== "function") return;
    const f = d.value;
    Object.defineProperty(proto, name, { ...d, value: { [name](...args) { return then(f.apply(this, args)); } }[name] });
  };
  wrap(Element.prototype, "attachShadow", (root) => {
    changes.watch(root);
    bump();
    return root;
  });
  for (const type of ["input", "change", "submit", "reset", "click", "dblclick", "contextmenu", "focusin",
    "focusout", "keydown", "keyup", "pointerdown", "pointerup", "pointerover", "pointerout", "pointermove",
    "mouseover", "mouseout", "mousemove", "wheel", "scroll", "scrollend", "resize", "toggle", "load", "error",
    "animationstart", "animationiteration", "animationend", "animationcancel", "transitionrun",
    "transitionstart", "transitionend", "transitioncancel", "hashchange", "popstate", "pageshow",
    "visibilitychange", "fullscreenchange", "beforetoggle", "selectionchange", "dragend", "drop", "paste", "cut"]) {
    // Capturing on the document sees the events that do not bubble (focus, scroll, load).
    document.addEventListener(type, bump, { capture: true, passive: true });
    window.addEventListener(type, bump, { capture: true, passive: true });
  }
  document.fonts?.addEventListener("loadingdone", bump);
  // A fetch is pending until it is answered or fails. The page gets a promise that settles as
  // the browser's does, with the same value or error (left unhandled, it is reported as the
  // browser's would be); an XMLHttpRequest until it ends, which a listener tells.
  const fetch = window.fetch;
  if (typeof fetch === "function") {
    Object.defineProperty(window, "fetch", { writable: true, enumerable: true, configurable: true,
      ...Object.getOwnPropertyDescriptor(window, "fetch"), value: { fetch(...args) {
        const answer = fetch.apply(this, args);
        pending++;
        return answer.finally(answered);
      } }.fetch });
  }
  const send = XMLHttpRequest.prototype.send;
  Object.defineProperty(XMLHttpRequest.prototype, "send", { ...Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, "send"),
    value: { send(...args) {
      pending++;
      let waiting = true;
      const end = () => {
        if (waiting) answered();
        waiting = false;
      };
      this.addEventListener("loadend", end, { once: true }); // a synchronous request ends within send
      try {
        return send.apply(this, args);
      } catch (e) { // not sent: not open, or sent already
        this.removeEventListener("loadend", end);
        end();
        throw e;
      }
    } }.send });
  // A value set by the page's script changes no attribute and fires no event.
  const setters = [
    [HTMLInputElement, ["value", "checked", "indeterminate", "valueAsNumber", "valueAsDate"],
      ["setCustomValidity", "stepUp", "stepDown", "setRangeText"]],
    [HTMLTextAreaElement, ["value"], ["setCustomValidity", "setRangeText"]],
    [HTMLSelectElement, ["value", "selectedIndex"], ["setCustomValidity"]],
    [HTMLOptionElement, ["selected"], []],
    [HTMLButtonElement, [], ["setCustomValidity"]],
    [HTMLFormElement, [], ["reset"]],
  ];
  for (const [type, props, methods] of setters) {
    const proto = type.prototype;
    for (const p of props) {
      const d = Object.getOwnPropertyDescriptor(proto, p);
      if (!d?.set) continue;
      const set = d.set;
      Object.defineProperty(proto, p, { ...d, set(v) { bump(); return set.call(this, v); } });
    }
    for (const m of methods) {
      wrap(proto, m, (result) => {
        bump();
        return result;
      });
    }
  }
  if (parentCount) parentCount.bump(); // a new document in a child frame
})();
