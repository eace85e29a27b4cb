() => {
  // Records the inputs a person or an outside agent makes in the page, as Playwright's codegen
  // records them: capture-phase listeners that only read, each trusted event reported to the
  // binding __observatoryInput with its target's role, accessible name and box. Installed once
  // per document; it never changes the page.
  if (window.__observatoryInputs) return;
  window.__observatoryInputs = true;
  const filled = new WeakMap(); // the value each field was last reported filled with
  const report = (kind, el, value) => {
    if (kind === "fill") {
      if (filled.get(el) === value) return;
      filled.set(el, value);
    }
    const r = el.getBoundingClientRect();
    const ro = role(el);
    window.__observatoryInput({
      kind, role: ro, name: name(el, ro), value: value ?? "", url: location.href,
      box: { x: r.x, y: r.y, width: r.width, height: r.height, viewport_width: innerWidth, viewport_height: innerHeight },
    });
  };
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
  addEventListener("click", (e) => {
    if (!e.isTrusted || !(e.target instanceof Element)) return;
    const el = control(e.target);
    if (el.tagName === "SELECT" || el.tagName === "OPTION" || fillable(el)) return;
    report("click", el);
  }, true);
  addEventListener("change", (e) => {
    const el = e.target;
    if (!e.isTrusted || !(el instanceof Element)) return;
    if (el.tagName === "SELECT") report("select", el, Array.from(el.selectedOptions, (o) => o.value).join(","));
    else if (fillable(el)) report("fill", el, el.type === "password" ? "" : el.value);
  }, true);
  addEventListener("keydown", (e) => {
    if (!e.isTrusted || !["Enter", "Escape", "Tab"].includes(e.key) || !(e.target instanceof Element)) return;
    const el = control(e.target);
    // Enter submits what was typed before change fires: report the fill first, as it happened.
    if (fillable(el)) report("fill", el, el.type === "password" ? "" : el.value);
    report("press", el, e.key);
  }, true);
}
