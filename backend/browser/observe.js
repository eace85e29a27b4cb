() => {
  // Samples the page in one round trip and returns it as JSON in the shape of agent.Sample.
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  const visible = (el) =>
    el.getClientRects().length > 0 &&
    el.checkVisibility({ visibilityProperty: true }) &&
    !el.closest("[aria-hidden=true]");
  const text = (el) => (el ? clean(el.innerText ?? el.textContent) : "");

  // Implicit roles, following Playwright's so Pairs agree with Resolve.
  const inputRoles = {
    button: "button", image: "button", reset: "button", submit: "button",
    checkbox: "checkbox", radio: "radio", number: "spinbutton", range: "slider",
  };
  const tagRoles = {
    BUTTON: "button", DIALOG: "dialog", FORM: "form", OPTION: "option",
    TABLE: "table", TR: "row", TD: "cell", TH: "columnheader", TEXTAREA: "textbox",
    OUTPUT: "status", NAV: "navigation", MAIN: "main", UL: "list", OL: "list", LI: "listitem",
    H1: "heading", H2: "heading", H3: "heading", H4: "heading", H5: "heading", H6: "heading",
  };
  const role = (el) => {
    const explicit = clean(el.getAttribute("role")).split(" ")[0];
    if (explicit) return explicit;
    const tag = el.tagName;
    if (tag === "A") return el.hasAttribute("href") ? "link" : "";
    if (tag === "SELECT") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "INPUT") {
      const type = el.type.toLowerCase();
      if (type === "hidden") return "";
      if (type === "search") return el.list ? "combobox" : "searchbox";
      return inputRoles[type] || (el.list ? "combobox" : "textbox");
    }
    return tagRoles[tag] || "";
  };

  // Roles whose accessible name may come from their content.
  const fromContent = new Set([
    "button", "link", "heading", "cell", "columnheader", "row", "option",
    "checkbox", "radio", "tab", "menuitem", "listitem",
  ]);
  // A label's text leaves out the controls inside it, as Playwright does.
  const labelText = (node) =>
    Array.from(node.childNodes, (c) =>
      c.nodeType === Node.TEXT_NODE ? c.textContent
      : c.nodeType !== Node.ELEMENT_NODE || c.matches("input, select, textarea, button") ? ""
      : labelText(c)
    ).join("");
  const byIds = (ids) =>
    clean(ids).split(" ").map((id) => document.getElementById(id)).filter(Boolean).map(text).join(" ");
  const name = (el, r) =>
    clean(
      byIds(el.getAttribute("aria-labelledby")) ||
      el.getAttribute("aria-label") ||
      Array.from(el.labels || [], labelText).join(" ") ||
      (fromContent.has(r) ? text(el) : "") ||
      el.getAttribute("title") ||
      el.getAttribute("placeholder")
    );

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
    for (const el of document.body.querySelectorAll("canvas")) add(el, "canvas", what(el));
    for (const el of document.body.querySelectorAll("*")) {
      const kids = el.children;
      if (kids.length >= 12 && silent(el) && Array.from(kids).every(silent)) {
        add(el, "unlabelled", `${what(el)} with ${kids.length} unlabelled elements`);
      }
    }
    return regions.map(({ el, ...r }) => r);
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
  for (const el of document.body.querySelectorAll("*")) {
    const r = role(el);
    if (!r || !visible(el)) continue;
    const n = name(el, r);
    sample.pairs.push({ role: r, name: n });
    if (fieldRoles.has(r) && el.closest("dialog[open], [role=dialog], form")) {
      sample.fields.push({
        role: r,
        name: n,
        value: valueOf(el, r),
        invalid: typeof el.checkValidity === "function" && !el.checkValidity(),
      });
    }
  }

  sample.dialog_open = Boolean(firstVisible("dialog[open], [role=dialog]"));
  sample.notice = text(firstVisible("[role=status], output"));
  sample.alert = text(firstVisible("[role=alert]"));
  const table = document.querySelector("table");
  for (const row of table ? table.tBodies[0]?.rows || [] : []) {
    sample.rows.push(Array.from(row.cells, text));
  }
  const form = firstVisible("form");
  sample.form_present = Boolean(form);
  sample.form_valid = Boolean(form) && form.checkValidity();
  sample.title = document.title;
  sample.unreadable = unreadable();
  sample.text = clean(document.body.innerText).slice(0, 2000);
  return JSON.stringify(sample);
}
