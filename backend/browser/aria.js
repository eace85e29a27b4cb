  // The helpers the page scripts share: what is visible, its text, and each element's role
  // and accessible name, computed as Playwright's role locators compute them so that what
  // the scripts report agrees with Resolve. Declarations only: pageScript puts them at the
  // top of each script's function.
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
  // aria-labelledby's ids name elements of the element's own document or shadow root.
  const byIds = (el, ids) => {
    const scope = el.getRootNode().getElementById ? el.getRootNode() : document;
    return clean(ids).split(" ").map((id) => scope.getElementById(id)).filter(Boolean).map(text).join(" ");
  };
  const name = (el, r) =>
    clean(
      byIds(el, el.getAttribute("aria-labelledby")) ||
      el.getAttribute("aria-label") ||
      Array.from(el.labels || [], labelText).join(" ") ||
      (fromContent.has(r) ? text(el) : "") ||
      el.getAttribute("title") ||
      el.getAttribute("placeholder")
    );

  // Every element under start in page order, with what a person sees as part of the page:
  // the inside of open shadow roots (after their host) and of shown same-origin frames.
  const deep = (start) => {
    const out = [];
    const walk = (node) => {
      for (const el of node.querySelectorAll("*")) {
        out.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
        if ((el.tagName === "IFRAME" || el.tagName === "FRAME") && visible(el)) {
          let doc = null;
          try { doc = el.contentDocument; } catch { /* another origin: not readable */ }
          if (doc && doc.body) walk(doc.body);
        }
      }
    };
    walk(start);
    return out;
  };
