(limit) => {
  // Copies the page's DOM as it is now into HTML text, for domsnap.Inert to make static: the
  // document's clone with what the live page holds and its markup does not written into it.
  // Fields' values, checks and choices become attributes (a password's value never does);
  // the open shadow roots become declarative ones (<template shadowrootmode>); a modal dialog
  // and the page's scroll are marked (data-observatory-modal, data-observatory-scroll); the
  // same-origin style sheets the page linked become <style> elements, since the copy loads
  // nothing. The page itself is never changed. Past limit characters it returns the length
  // alone.
  // The copy is made in a document of its own, with no window: there nothing loads or runs.
  // A clone in the page's own document would fetch its images again and run their error
  // handlers, and construct its custom elements, in the live page.
  const inert = document.implementation.createHTMLDocument("");
  const reflect = (live, copy) => {
    const tag = live.localName;
    if (tag === "input") {
      const type = (live.type || "").toLowerCase();
      if (type === "password" || type === "file") copy.removeAttribute("value");
      else if (type === "checkbox" || type === "radio") copy.toggleAttribute("checked", live.checked);
      else copy.setAttribute("value", live.value);
    } else if (tag === "textarea") {
      copy.textContent = live.value;
    } else if (tag === "option") {
      copy.toggleAttribute("selected", live.selected);
    } else if (tag === "dialog" && live.open && live.matches(":modal")) {
      // A modal dialog is drawn in the top layer, fixed in the viewport; its markup says only
      // "open". The copy says it was modal, so that it is shown where it was.
      copy.setAttribute("data-observatory-modal", "");
    } else if (tag === "link" && /(^|\s)stylesheet(\s|$)/i.test(live.rel || "") && live.sheet) {
      let css = null;
      try {
        css = Array.from(live.sheet.cssRules, (r) => r.cssText).join("\n");
      } catch {
        // another origin's sheet cannot be read: the copy goes without it
      }
      if (css !== null) {
        const style = inert.createElement("style");
        style.textContent = css;
        copy.replaceWith(style);
      }
    }
  };
  // Walks a live tree and its copy, element by element in document order (the copy is the
  // live tree's clone, so both lists match), and copies each open shadow root as a template.
  const fill = (live, copy) => {
    const lives = live.querySelectorAll("*");
    const copies = copy.querySelectorAll("*");
    for (let i = 0; i < lives.length && i < copies.length; i++) {
      const l = lives[i];
      const c = copies[i];
      if (l.shadowRoot) {
        const template = inert.createElement("template");
        template.setAttribute("shadowrootmode", "open");
        const frag = inert.createDocumentFragment();
        for (const child of l.shadowRoot.childNodes) frag.append(inert.importNode(child, true));
        fill(l.shadowRoot, frag);
        template.content.append(frag);
        c.prepend(template);
      }
      reflect(l, c);
    }
  };
  const root = document.documentElement;
  if (!root) return "";
  const copy = inert.importNode(root, true);
  fill(root, copy);
  // Where the page was scrolled to, which its markup does not hold: boxes measured in the
  // viewport fall on the copy only scrolled there.
  if (window.scrollX || window.scrollY) copy.setAttribute("data-observatory-scroll", Math.round(window.scrollX) + " " + Math.round(window.scrollY));
  const doctype = document.doctype ? "<!DOCTYPE " + document.doctype.name + ">" : "";
  const html = doctype + copy.outerHTML;
  return html.length > limit ? html.length : html;
};
