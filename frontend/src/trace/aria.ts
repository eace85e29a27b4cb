// An element's role and accessible name as Playwright's role locators compute them, enough of
// both for the element picker to name what a DOM snapshot shows (see locator.ts): implicit
// roles of HTML's elements, aria-labelledby, aria-label, labels (for= and wrapping), values of
// buttons, alt texts, titles, placeholders and names from content. Works on elements of any
// document (a snapshot's frame included): it tests tag names, never instanceof. Pure.

/** Input types and their roles; any other type is a textbox (as Playwright has it). */
const INPUT_ROLES: Record<string, string> = {
  button: "button",
  checkbox: "checkbox",
  image: "button",
  number: "spinbutton",
  radio: "radio",
  range: "slider",
  reset: "button",
  submit: "button",
};

/** Roles named by their content when nothing else names them. */
const FROM_CONTENT = new Set([
  "button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab", "tooltip", "treeitem",
]);

/** Elements whose label (for= or wrapping) names them. */
export const LABELABLE = new Set(["input", "select", "textarea", "button", "meter", "progress", "output"]);

/** Whitespace collapsed and trimmed, as names are compared. */
export function normalize(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The computed style of el in its own document's window; its inline style in a document that has no window (DOMParser's). */
function styleOf(el: Element): CSSStyleDeclaration | null {
  const view = el.ownerDocument.defaultView;
  try {
    return view ? view.getComputedStyle(el) : ((el as HTMLElement).style ?? null);
  } catch {
    return null;
  }
}

/** The element a hidden parent hides el with: its parent, or its shadow root's host; null at the top. */
export function parentOf(el: Element): Element | null {
  return el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
}

/** True when el itself is hidden, whatever its parents: hidden, aria-hidden, display none, visibility hidden, a closed dialog. */
export function hiddenItself(el: Element): boolean {
  if (el.hasAttribute("hidden") && el.localName !== "dialog") return true;
  if (el.getAttribute("aria-hidden") === "true") return true;
  const s = styleOf(el);
  if (s && (s.display === "none" || s.visibility === "hidden")) return true;
  return el.localName === "dialog" && !el.hasAttribute("open");
}

/** The element's role: its role attribute's first token, else its implicit role; "" for none. */
export function roleOf(el: Element): string {
  const explicit = (el.getAttribute("role") ?? "").trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = el.localName;
  switch (tag) {
    case "a":
    case "area":
      return el.hasAttribute("href") ? "link" : "";
    case "button":
      return "button";
    case "input": {
      const type = (el.getAttribute("type") ?? "").toLowerCase();
      if (type === "hidden") return "";
      if (type === "search") return el.hasAttribute("list") ? "combobox" : "searchbox";
      if (["", "text", "email", "tel", "url"].includes(type) && el.hasAttribute("list")) return "combobox";
      return INPUT_ROLES[type] ?? "textbox";
    }
    case "select":
      return el.hasAttribute("multiple") || Number(el.getAttribute("size")) > 1 ? "listbox" : "combobox";
    case "textarea":
      return "textbox";
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
      return "heading";
    case "img":
      return el.getAttribute("alt") === "" ? "presentation" : "img";
    case "table":
      return "table";
    case "tr":
      return "row";
    case "td":
      return el.closest("table")?.getAttribute("role") === "grid" ? "gridcell" : "cell";
    case "th":
      return el.getAttribute("scope") === "row" ? "rowheader" : "columnheader";
    case "ul":
    case "ol":
      return "list";
    case "li":
      return "listitem";
    case "nav":
      return "navigation";
    case "main":
      return "main";
    case "dialog":
      return "dialog";
    case "form":
      return ownName(el) ? "form" : "";
    case "section":
      return ownName(el) ? "region" : "";
    case "article":
      return "article";
    case "aside":
      return "complementary";
    case "fieldset":
    case "details":
      return "group";
    case "option":
      return "option";
    case "output":
      return "status";
    case "progress":
      return "progressbar";
    case "meter":
      return "meter";
    case "hr":
      return "separator";
    case "header":
      return el.closest("article, aside, main, nav, section") ? "" : "banner";
    case "footer":
      return el.closest("article, aside, main, nav, section") ? "" : "contentinfo";
  }
  return "";
}

/** True when el is named by its attributes (aria-labelledby, aria-label, title), as a form or section needs to have a role. */
function ownName(el: Element): boolean {
  return ["aria-labelledby", "aria-label", "title"].some((a) => normalize(el.getAttribute(a) ?? "") !== "");
}

/** The elements the space-separated ids in el's attr name, in order, from el's document or shadow root. */
function idRefs(el: Element, attr: string): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  return (el.getAttribute(attr) ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
    .filter((e): e is HTMLElement => e !== null);
}

/** The labels of a labelable element: <label for=its id> and the label wrapping it. */
export function labelsOf(el: Element): Element[] {
  if (!LABELABLE.has(el.localName)) return [];
  const out: Element[] = [];
  const id = el.getAttribute("id");
  if (id) {
    const root = el.getRootNode() as Document | ShadowRoot;
    root.querySelectorAll("label[for]").forEach((l) => l.getAttribute("for") === id && out.push(l));
  }
  const wrapping = el.parentElement?.closest("label");
  if (wrapping && !wrapping.hasAttribute("for") && !out.includes(wrapping)) out.push(wrapping);
  return out;
}

/** The text of n's subtree as a name reads it (n itself shown): hidden parts left out, an element's own aria-label in place of its content, skip's subtree left out (a control inside its own label). */
function textOf(n: Node, skip?: Element): string {
  if (n.nodeType === 3) return n.textContent ?? "";
  if (n.nodeType !== 1) return "";
  const el = n as Element;
  if (el === skip || ["script", "style", "template", "noscript"].includes(el.localName) || hiddenItself(el)) return "";
  const label = normalize(el.getAttribute("aria-label") ?? "");
  if (label) return ` ${label} `;
  if (el.localName === "img") return ` ${el.getAttribute("alt") ?? ""} `;
  if (el.localName === "input" && el.getAttribute("type") !== "hidden") return ` ${el.getAttribute("value") ?? ""} `;
  if (el.localName === "select") return ` ${el.querySelector("option[selected]")?.textContent ?? el.querySelector("option")?.textContent ?? ""} `;
  const kids = el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
  const text = Array.from(kids, (c) => textOf(c, skip)).join("");
  const display = styleOf(el)?.display || "inline";
  return display.startsWith("inline") ? text : ` ${text} `;
}

/** Where an element's accessible name comes from, besides its content: "labelledby", "aria-label", "label" or "" (see accessibleName). */
export type NameSource = "labelledby" | "aria-label" | "label" | "";

/** The element's name and where it came from (see accessibleName). */
export function nameWithSource(el: Element): { name: string; source: NameSource | "content" | "attribute" } {
  const by = idRefs(el, "aria-labelledby");
  if (by.length > 0) {
    const name = normalize(by.map((e) => textOf(e)).join(" "));
    if (name) return { name, source: "labelledby" };
  }
  const aria = normalize(el.getAttribute("aria-label") ?? "");
  if (aria) return { name: aria, source: "aria-label" };
  const tag = el.localName;
  const type = (el.getAttribute("type") ?? "").toLowerCase();
  if (tag === "input" && ["button", "submit", "reset"].includes(type)) {
    const v = normalize(el.getAttribute("value") ?? "");
    return { name: v || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""), source: "attribute" };
  }
  if (tag === "input" && type === "image") return { name: normalize(el.getAttribute("alt") ?? ""), source: "attribute" };
  const labelled = normalize(labelsOf(el).map((l) => textOf(l, el)).join(" "));
  if (labelled) return { name: labelled, source: "label" };
  if (tag === "img" || tag === "area") {
    const alt = normalize(el.getAttribute("alt") ?? "");
    if (alt) return { name: alt, source: "attribute" };
  }
  if (FROM_CONTENT.has(roleOf(el))) {
    const text = normalize(textOf(el));
    if (text) return { name: text, source: "content" };
  }
  const title = normalize(el.getAttribute("title") ?? "");
  if (title) return { name: title, source: "attribute" };
  const placeholder = normalize(el.getAttribute("placeholder") ?? "");
  return { name: placeholder, source: placeholder ? "attribute" : "" };
}

/** The element's accessible name, whitespace collapsed; "" for none. */
export function accessibleName(el: Element): string {
  return nameWithSource(el).name;
}

/** The element's text as a person reads it, whitespace collapsed. */
export function visibleText(el: Element): string {
  return normalize(textOf(el));
}
