([probes, heardSince, unless]) => {
  // Samples the page in one round trip and returns it as JSON in the shape of agent.Sample,
  // with a token that says whether the page has changed since (quiet). Given the token of the
  // last sample (unless), it first asks the document's count of changes (see changes.js) and,
  // when it is still that token, returns { same: true } instead: nothing it reads has changed,
  // and the caller reuses that sample, in the same round trip as a fresh one would have taken.
  if (unless && window[Symbol.for("observatory.changes")]?.token() === unless) return { same: true };
  // It runs with aria.js's helpers (visible, text, role, name) declared first (see pageScript).
  // A document still parsing its head has no body yet: it returns null, and the caller waits
  // for the document and asks again. A document that has none (an SVG image) is read whole.
  if (!document.body && document.readyState === "loading") return null;
  // A document a submit or a link is leaving (see announce.js) returns "leaving", once: the
  // caller waits for the next document.
  const leaving = window[Symbol.for("observatory.leaving")];
  if (leaving?.event) {
    const e = leaving.event;
    leaving.event = null;
    if (!e.defaultPrevented) return "leaving";
  }
  const root = document.body || document.documentElement;

  // Large visible regions the accessibility snapshot cannot describe: a canvas, or a block
  // of many elements none of which has a role, a name or text. Decorative backgrounds are
  // left out: hidden from assistive technology (aria-hidden, role presentation or none),
  // fully transparent, or small.
  const unreadable = () => {
    const vw = window.innerWidth, vh = window.innerHeight;
    const minSide = 100, minShare = 0.04, maxRegions = 8;
    const decorative = (el) =>
      el.closest("[role=presentation], [role=none]") ||
      !el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const onScreen = (el) => {
      const r = el.getBoundingClientRect();
      const x = Math.max(0, r.left), y = Math.max(0, r.top);
      const w = Math.min(vw, r.right) - x, h = Math.min(vh, r.bottom) - y;
      return { x: Math.round(x), y: Math.round(y), w: Math.round(w), h: Math.round(h) };
    };
    const large = (b) => b.w >= minSide && b.h >= minSide && b.w * b.h >= minShare * vw * vh;
    const what = (el) =>
      el.tagName.toLowerCase() + (el.id ? "#" + el.id : el.classList[0] ? "." + el.classList[0] : "");
    // silent: an element with no role, no name and no text of its own, nor any below it.
    const silent = (el) => !role(el) && !name(el, "") && !clean(el.textContent);
    const regions = [];
    const add = (el, kind, label) => {
      if (regions.length >= maxRegions || !visible(el) || decorative(el)) return;
      const b = onScreen(el);
      if (large(b) && !regions.some((r) => r.el.contains(el))) regions.push({ el, kind, what: label, ...b });
    };
    for (const el of root.querySelectorAll("canvas")) add(el, "canvas", what(el));
    for (const el of root.querySelectorAll("*")) {
      const kids = el.children;
      if (kids.length >= 12 && silent(el) && Array.from(kids).every(silent)) {
        add(el, "unlabelled", `${what(el)} with ${kids.length} unlabelled elements`);
      }
    }
    return regions.map(({ el, ...r }) => r);
  };

  // The element with the keyboard focus, and whether Enter in it submits its form: in a
  // single-line field of a form, Enter presses the form's default button (its first submit
  // button, unless disabled), or submits a form that has none and no other such field
  // (implicit submission).
  const singleLine = new Set(["text", "search", "email", "url", "tel", "password", "number", "date",
    "datetime-local", "month", "week", "time"]);
  const focus = () => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const r = role(el) || "";
    const f = { role: r, name: name(el, r) };
    const form = el.form;
    if (form && el.tagName === "INPUT" && singleLine.has(el.type)) {
      const submitter = Array.from(form.elements).find(
        (e) => (e.tagName === "BUTTON" && e.type === "submit") || (e.tagName === "INPUT" && (e.type === "submit" || e.type === "image")),
      );
      const blocking = Array.from(form.elements).filter((e) => e.tagName === "INPUT" && singleLine.has(e.type));
      if (!submitter) f.submits = blocking.length === 1;
      else if (!submitter.disabled) {
        f.submits = true;
        f.submitter = name(submitter, role(submitter) || "button") || clean(submitter.value) || "Submit";
      }
    }
    return f;
  };

  const firstVisible = (selector) => Array.from(document.querySelectorAll(selector)).find(visible);
  const fieldRoles = new Set(["textbox", "searchbox", "spinbutton", "combobox", "checkbox"]);

  // A checkbox's value is whether it is checked; other fields show their value, or their
  // text when they are not native controls.
  const valueOf = (el, r) =>
    r === "checkbox"
      ? String(el.type === "checkbox" ? el.checked : el.getAttribute("aria-checked") === "true")
      : el.value ?? text(el);

  const sample = { url: location.href, pairs: [], fields: [], rows: [] };
  const all = deep(root);
  // Each shown same-origin iframe's own view, by its document: where it is (the title and
  // name of every frame down to it), its address and text, and below its roles and fields.
  const views = new Map();
  for (const el of all) {
    if (views.size === 8) break;
    if ((el.tagName !== "IFRAME" && el.tagName !== "FRAME") || !visible(el)) continue;
    let doc = null;
    try { doc = el.contentDocument; } catch { /* another origin: not readable */ }
    if (!doc || !doc.body || views.has(doc)) continue;
    const path = [];
    for (let f = el; f; f = f.ownerDocument.defaultView?.frameElement) {
      path.unshift({ title: f.title || "", name: f.name || "" });
      if (f.ownerDocument === document) break;
    }
    views.set(doc, { path, url: doc.location.href, text: clean(doc.body.innerText ?? "").slice(0, 2000), pairs: [], fields: [] });
  }
  for (const el of all) {
    const r = role(el);
    if (!r || !visible(el)) continue;
    const n = name(el, r);
    const view = views.get(el.ownerDocument);
    sample.pairs.push({ role: r, name: n });
    view?.pairs.push({ role: r, name: n });
    if (fieldRoles.has(r) && el.closest("dialog[open], [role=dialog], form")) {
      const field = {
        role: r,
        name: n,
        value: valueOf(el, r),
        invalid: typeof el.checkValidity === "function" && !el.checkValidity(),
      };
      sample.fields.push(field);
      view?.fields.push(field);
    }
  }
  if (views.size) sample.frames = Array.from(views.values());

  sample.dialog_open = Boolean(firstVisible("dialog[open], [role=dialog]"));
  // The notice is what the page announces to assistive technology, shown or visually hidden
  // (a live region clipped to a pixel, as WordPress's #a11y-speak-polite): the first status
  // or <output> with text, else the first other aria-live region with text. The alert is the
  // first alert with text.
  const announced = (selector) => all.find((el) => el.matches(selector) && visible(el) && text(el));
  // A notice that came and went since the last observation (see announce.js) is the notice
  // when none is shown now. heard tells the caller where this document's announcements are.
  const heard = window[Symbol.for("observatory.announced")] || { seq: 0, items: [] };
  const since = heard.items.filter((i) => performance.timeOrigin !== heardSince.origin || i.seq > heardSince.seq);
  let recalled = false; // whether a notice came from what came and went
  const gone = (place) => {
    const t = since.filter((i) => (i.place || "") === place).at(-1)?.text || "";
    recalled ||= Boolean(t);
    return t;
  };
  sample.notice = text(announced("[role=status], output") || announced('[aria-live]:not([aria-live="off"], [role=alert])')) || gone("");
  // The task's named notices: what each place shows now, else what it showed and hid since.
  const shownAt = (sel) => {
    try { return text(all.find((el) => el.matches(sel) && visible(el) && text(el))); } catch { return ""; }
  };
  if (heard.places?.length) sample.notices = heard.places.map((p) => ({ id: p.id, value: shownAt(p.selector) || gone(p.id) }));
  sample.heard = { origin: performance.timeOrigin, seq: heard.seq };
  sample.alert = text(announced("[role=alert]"));
  const table = document.querySelector("table");
  for (const row of table ? table.tBodies[0]?.rows || [] : []) {
    sample.rows.push(Array.from(row.cells, text));
  }
  const form = firstVisible("form");
  sample.form_present = Boolean(form);
  sample.form_valid = Boolean(form) && form.checkValidity();
  sample.title = document.title;
  sample.unreadable = unreadable();
  // The page's text, then its shown same-origin frames' text and its shadow roots' text.
  const frameText = all.filter((el) => el.tagName === "IFRAME" && visible(el)).map((f) => {
    try { return f.contentDocument?.body?.innerText ?? ""; } catch { return ""; }
  });
  const shadowText = all.filter((el) => el.shadowRoot).map((el) => Array.from(el.shadowRoot.children, (c) => c.innerText ?? "").join("\n"));
  sample.text = clean([root.innerText ?? root.textContent, ...frameText, ...shadowText].join("\n")).slice(0, 2000);
  sample.focus = focus();
  sample.viewport = { width: window.innerWidth, height: window.innerHeight };
  if (window.devicePixelRatio !== 1) sample.pixel_ratio = window.devicePixelRatio;

  // The task's authority: the principal, the relevant text and the version, each read from
  // an element (its value, a meta tag's content, or its text), local storage or a cookie
  // the page can see (Go reads the rest from the browser context).
  const cookie = (key) => {
    for (const part of document.cookie.split(";")) {
      const i = part.indexOf("=");
      if (i > 0 && part.slice(0, i).trim() === key) return decodeURIComponent(part.slice(i + 1).trim());
    }
    return "";
  };
  const probe = (p) => {
    if (!p) return "";
    if (p.storage) {
      try { return clean(localStorage.getItem(p.storage)); } catch { return ""; }
    }
    if (p.cookie) return clean(cookie(p.cookie));
    let el = null;
    try {
      el = p.test_id ? document.querySelector(`[data-testid="${CSS.escape(p.test_id)}"]`) : document.querySelector(p.css);
    } catch { return ""; }
    if (!el) return "";
    if (["INPUT", "SELECT", "TEXTAREA", "OUTPUT"].includes(el.tagName)) return clean(el.value);
    if (el.tagName === "META") return clean(el.content);
    return text(el);
  };
  if (probes) {
    sample.principal = probe(probes.principal);
    sample.version = probe(probes.version);
    sample.facts = (probes.relevant || []).map((p) => ({ id: p.id, value: probe(p) }));
  }

  // quiet is the document's changes token (see changes.js) when this sample is what the next
  // observation would read as long as the token stays the same: not when it tells a notice
  // that came and went (the next one would not), shows unreadable regions (their boxes move
  // with any element's scroll) or reads a page with an animation or transition running. A
  // shadow root the page declared in its markup is watched from now on.
  const changes = window[Symbol.for("observatory.changes")];
  for (const el of all) if (el.shadowRoot) changes?.watch(el.shadowRoot);
  const moving = [document, ...views.keys()].some((d) => d.getAnimations().length);
  const quiet = changes && !recalled && !moving && !sample.unreadable.length ? changes.token() : "";
  return { sample: JSON.stringify(sample), quiet };
}
