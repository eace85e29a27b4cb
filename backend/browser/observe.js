(probes) => {
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
  sample.text = clean(document.body.innerText).slice(0, 2000);

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
  return JSON.stringify(sample);
}
