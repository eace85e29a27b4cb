// The locators of an element a person picked in a DOM snapshot, in the task file's target
// syntax (docs/taskfile.md): each one that names that element alone on the page, best first as
// Playwright's picker ranks them: a role with its exact accessible name, a test id, a label, a
// placeholder, a role and name inside a named container (a row by one of its cells), the text,
// CSS last. Reads the snapshot's document, never changes it. Pure.
import type { Target } from "../api/types";
import { LABELABLE, accessibleName, hiddenItself, nameWithSource, normalize, parentOf, roleOf, visibleText } from "./aria";

/** What a click means when it lands inside one of these: the control, not the text in it. */
const CONTROLS =
  "a[href], button, input, select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=option], [role=combobox], [role=textbox], [role=slider]";

/** Roles a target may be `within`; a row is named by its cells' text. */
const CONTAINERS = new Set(["row", "dialog", "region", "form", "group", "article", "navigation", "listitem", "table", "list"]);

/** Text longer than this is not offered as a text locator: a paragraph is no target. */
const MAX_TEXT = 80;

/**
 * The element a person means by pointing at el: the control el is in (the button, not its
 * label's span), the control a <label> names, else el itself.
 */
export function pickable(el: Element): Element {
  const control = el.closest(CONTROLS);
  if (control) return control;
  const label = el.closest("label");
  if (label) {
    const forId = label.getAttribute("for");
    const named = forId ? (label.getRootNode() as Document | ShadowRoot).getElementById?.(forId) : label.querySelector("input, select, textarea, button, meter, progress, output");
    if (named) return named;
  }
  return el;
}

/** An element's role, name, text and visibility, each read once in a pick: while a container is chosen a page's rows are named many times over. */
interface Reader {
  role(e: Element): string;
  name(e: Element): string;
  text(e: Element): string;
  hidden(e: Element): boolean;
}

/** A Reader that remembers what it read. */
function reader(): Reader {
  const memo = <T,>(f: (e: Element) => T) => {
    const m = new Map<Element, T>();
    return (e: Element): T => {
      if (!m.has(e)) m.set(e, f(e));
      return m.get(e)!;
    };
  };
  const hidden: (e: Element) => boolean = memo((e) => hiddenItself(e) || (parentOf(e) !== null && hidden(parentOf(e)!)));
  return { role: memo(roleOf), name: memo(accessibleName), text: memo(visibleText), hidden };
}

/** Every element of el's document, open shadow roots included, in document order. */
function everyElement(doc: Document | ShadowRoot, out: Element[] = []): Element[] {
  doc.querySelectorAll("*").forEach((e) => {
    out.push(e);
    if (e.shadowRoot) everyElement(e.shadowRoot, out);
  });
  return out;
}

/** The element's ancestors, innermost first, out of shadow roots too. */
function ancestors(el: Element): Element[] {
  const out: Element[] = [];
  for (let e = parentOf(el); e; e = parentOf(e)) out.push(e);
  return out;
}

/** The elements a role and exact name match among all, hidden ones left out as role locators leave them. */
function byRole(r: Reader, all: Element[], role: string, name: string): Element[] {
  return all.filter((e) => r.role(e) === role && (name === "" || r.name(e) === name) && !r.hidden(e));
}

/** The containers `within: {role, name}` matches: the role, a name containing name whatever its case. */
function containersOf(r: Reader, all: Element[], role: string, name: string): Element[] {
  const want = name.toLowerCase();
  return all.filter((e) => r.role(e) === role && !r.hidden(e) && r.name(e).toLowerCase().includes(want));
}

/** The names to try for a container, shortest first: a row's cells, then its own name. */
function containerNames(r: Reader, c: Element, role: string): string[] {
  const own = r.name(c);
  const cells = role === "row" ? Array.from(c.children, (cell) => r.text(cell)).filter(Boolean) : [];
  const names = [...new Set([...cells.sort((a, b) => a.length - b.length), own])];
  return own ? names : [...names, ""];
}

/** The role and name of el inside the innermost container that makes it the only match, if one does. */
function withinContainer(r: Reader, el: Element, all: Element[], role: string, name: string): Target | undefined {
  const same = byRole(r, all, role, name);
  for (const c of ancestors(el)) {
    const cRole = r.role(c);
    if (!CONTAINERS.has(cRole) || r.hidden(c)) continue;
    for (const cName of containerNames(r, c, cRole)) {
      const scopes = containersOf(r, all, cRole, cName);
      const inside = same.filter((e) => scopes.some((s) => s !== e && s.contains(e)));
      if (inside.length === 1 && inside[0] === el) return { role, name, within: cName ? { role: cRole, name: cName } : { role: cRole } };
    }
  }
  return undefined;
}

/** A CSS selector of el alone: its id, else its path of tags from the nearest ancestor with an id. */
function cssOf(el: Element): string | undefined {
  const root = el.getRootNode() as Document | ShadowRoot;
  const idSel = (e: Element) => {
    const id = e.getAttribute("id");
    if (!id) return undefined;
    const sel = /^[A-Za-z][\w-]*$/.test(id) ? `#${id}` : `[id="${id.replace(/["\\]/g, "\\$&")}"]`;
    return root.querySelectorAll(sel).length === 1 ? sel : undefined;
  };
  const parts: string[] = [];
  for (let e: Element | null = el; e && e.localName !== "html"; e = e.parentElement) {
    const id = idSel(e);
    if (id) {
      parts.unshift(id);
      break;
    }
    const same = e.parentElement ? Array.from(e.parentElement.children).filter((s) => s.localName === e!.localName) : [e];
    parts.unshift(same.length > 1 ? `${e.localName}:nth-of-type(${same.indexOf(e) + 1})` : e.localName);
  }
  const sel = parts.join(" > ");
  const found = root.querySelectorAll(sel);
  return found.length === 1 && found[0] === el ? sel : undefined;
}

/** Elements whose own text is text (exactly, whitespace collapsed) and none of whose children's is: what a text locator matches. */
function byText(r: Reader, all: Element[], text: string): Element[] {
  return all.filter(
    (e) => !["html", "body", "head"].includes(e.localName) && r.text(e) === text && !r.hidden(e) && !Array.from(e.children).some((c) => r.text(c) === text),
  );
}

/**
 * Every target that matches el alone in its document, best first (see the file's comment); CSS
 * (its id, else a path of tags) only when nothing else does. Empty when not even that does.
 */
export function locatorsFor(el: Element): Target[] {
  const all = everyElement(el.ownerDocument);
  const r = reader();
  const alone = (found: Element[]) => found.length === 1 && found[0] === el;
  const out: Target[] = [];
  const role = r.role(el);
  const { name, source } = nameWithSource(el);
  if (role && name && alone(byRole(r, all, role, name))) out.push({ role, name });
  const testId = el.getAttribute("data-testid");
  if (testId && alone(all.filter((e) => e.getAttribute("data-testid") === testId))) out.push({ test_id: testId });
  if (name && (source === "label" || source === "aria-label" || source === "labelledby")) {
    const labelled = all.filter(
      (e) =>
        (LABELABLE.has(e.localName) || e.hasAttribute("aria-label") || e.hasAttribute("aria-labelledby")) &&
        ["label", "aria-label", "labelledby"].includes(nameWithSource(e).source) &&
        r.name(e) === name &&
        !r.hidden(e),
    );
    if (alone(labelled)) out.push({ label: name });
  }
  const placeholder = normalize(el.getAttribute("placeholder") ?? "");
  if (placeholder && alone(all.filter((e) => normalize(e.getAttribute("placeholder") ?? "") === placeholder && !r.hidden(e)))) out.push({ placeholder });
  if (role && !name && alone(byRole(r, all, role, ""))) out.push({ role });
  if (role && name && out.length === 0) {
    const within = withinContainer(r, el, all, role, name);
    if (within) out.push(within);
  }
  const text = r.text(el);
  if (text && text.length <= MAX_TEXT && !out.some((t) => t.role && t.name === text) && alone(byText(r, all, text))) out.push({ text });
  if (out.length === 0) {
    const css = cssOf(el);
    if (css) out.push({ css });
  }
  return out;
}

/** YAML's words that a plain scalar would read as something other than a string. */
const RESERVED = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

/** s as a YAML flow scalar: plain where it reads back as the same string, else single-quoted. */
function scalar(s: string): string {
  const plain = /^[A-Za-z][A-Za-z0-9 _.\-/()'"!?&@+]*$/.test(s) && !RESERVED.test(s) && !/\s$/.test(s);
  return plain ? s : `'${s.replace(/'/g, "''")}'`;
}

/** The keys of a target and of its container in the order the docs write them. */
const KEYS = ["role", "name", "label", "placeholder", "test_id", "text", "css"] as const;

/** A mapping of the keys of m that are set, as YAML's flow style writes it: {role: button, name: Save}. */
function flow(m: Partial<Record<(typeof KEYS)[number], string>>): string {
  return `{${KEYS.filter((k) => m[k])
    .map((k) => `${k}: ${scalar(m[k]!)}`)
    .join(", ")}}`;
}

/** t as a task file's step writes it: {role: button, name: Delete, within: {role: row, name: Invoice 42}}. */
export function targetYaml(t: Target): string {
  const own = flow(t);
  const w = t.within;
  if (!w || !(w.role || w.test_id || w.css)) return own;
  return `${own.slice(0, -1)}, within: ${flow(w)}}`;
}
