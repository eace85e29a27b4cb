// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { accessibleName, roleOf } from "./aria";
import { locatorsFor, pickable, targetYaml } from "./locator";

/** A document of body's markup, read as a snapshot is (no script runs). */
function page(body: string): Document {
  return new DOMParser().parseFromString(`<!DOCTYPE html><html><body>${body}</body></html>`, "text/html");
}

/** The best locator of the element sel finds, as a task file writes it. */
function best(doc: Document, sel: string): string {
  const el = doc.querySelector(sel);
  if (!el) throw new Error(`no ${sel}`);
  const found = locatorsFor(pickable(el));
  return found.length ? targetYaml(found[0]) : "";
}

describe("locatorsFor", () => {
  it("names a button by its role and name, as the booking lab's plan does", () => {
    const doc = page(`<dialog open><form><h2>New reservation</h2><button type="button">Cancel</button><button type="submit" id="save">Save reservation</button></form></dialog>`);
    expect(best(doc, "#save")).toBe("{role: button, name: Save reservation}");
    // Its text names it alone too, but says no more than its name.
    expect(locatorsFor(doc.querySelector("#save")!).map(targetYaml)).toEqual(["{role: button, name: Save reservation}"]);
  });

  it("names an input by its label, for= or wrapping, the wrapped select's options left out", () => {
    const doc = page(
      `<label for="t">Reservation title</label><input id="t" type="text">` +
        `<label>Category <select id="c"><option>Food</option><option>Travel</option></select></label>` +
        `<label><input type="checkbox" id="k"> Keep me signed in</label>`,
    );
    expect(accessibleName(doc.querySelector("#c")!)).toBe("Category");
    expect(locatorsFor(doc.querySelector("#t")!).map(targetYaml)).toEqual(["{role: textbox, name: Reservation title}", "{label: Reservation title}"]);
    expect(best(doc, "#c")).toBe("{role: combobox, name: Category}");
    expect(best(doc, "#k")).toBe("{role: checkbox, name: Keep me signed in}");
    // A click on the label's words means its control.
    expect(pickable(doc.querySelector("label")!)).toBe(doc.querySelector("#t"));
  });

  it("takes aria-label and aria-labelledby over the content, and offers the label", () => {
    const doc = page(`<button aria-label="Close dialog" id="x">×</button><span id="n">Note</span><textarea aria-labelledby="n" id="a"></textarea>`);
    expect(locatorsFor(doc.querySelector("#x")!).map(targetYaml)).toEqual(["{role: button, name: Close dialog}", "{label: Close dialog}"]);
    expect(best(doc, "#a")).toBe("{role: textbox, name: Note}");
  });

  it("names a repeated button by the row it is in, by its shortest telling cell", () => {
    const doc = page(
      `<table><tr><th>Invoice</th><th>Amount</th><th></th></tr>` +
        `<tr><td>Invoice 41</td><td>10</td><td><button>Delete</button></td></tr>` +
        `<tr><td>Invoice 42</td><td>10</td><td><button id="d"><span>Delete</span></button></td></tr></table>`,
    );
    // The span a pointer lands on means its button.
    expect(pickable(doc.querySelector("#d span")!)).toBe(doc.querySelector("#d"));
    expect(best(doc, "#d span")).toBe("{role: button, name: Delete, within: {role: row, name: Invoice 42}}");
  });

  it("reaches into open shadow roots, as targets do", () => {
    const doc = page(`<div id="host"></div><button>Inside</button>`);
    const root = doc.getElementById("host")!.attachShadow({ mode: "open" });
    root.innerHTML = `<label>Note <input id="n"></label><button id="b">Inside</button>`;
    expect(locatorsFor(root.getElementById("n")!).map(targetYaml)).toEqual(["{role: textbox, name: Note}", "{label: Note}"]);
    // The page repeats the button outside the shadow root: it counts, and CSS inside the root tells them apart.
    expect(locatorsFor(root.getElementById("b")!).map(targetYaml)).toEqual(["{css: '#b'}"]);
  });

  it("leaves hidden elements out of the count, as role locators do", () => {
    const doc = page(`<button id="a">Save</button><button hidden>Save</button><div style="display: none"><button>Save</button></div>`);
    expect(best(doc, "#a")).toBe("{role: button, name: Save}");
  });

  it("falls back to a test id, a placeholder, text and CSS in that order", () => {
    const doc = page(
      `<button data-testid="go">Go</button><button data-testid="go2">Go</button>` +
        `<input placeholder="Search rooms" id="s"><input placeholder="Search rooms" id="s2" aria-label="Other">` +
        `<p>Reservations</p><p>A long paragraph</p><p>A long paragraph</p><div><span></span><span></span></div>`,
    );
    expect(best(doc, "[data-testid=go]")).toBe("{test_id: go}");
    expect(best(doc, "p")).toBe("{text: Reservations}");
    expect(best(doc, "p:nth-of-type(2)")).toBe("{css: 'body > p:nth-of-type(2)'}");
    expect(best(doc, "#s2")).toBe("{role: textbox, name: Other}");
    expect(roleOf(doc.querySelector("#s")!)).toBe("textbox");
    expect(best(doc, "#s")).toBe("{role: textbox, name: Search rooms}");
    expect(best(doc, "span:nth-of-type(2)")).toBe("{css: 'body > div > span:nth-of-type(2)'}");
  });
});

describe("targetYaml", () => {
  it.each([
    [{ role: "button", name: "Save" }, "{role: button, name: Save}"],
    [{ label: "Title" }, "{label: Title}"],
    [{ role: "main" }, "{role: main}"],
    [{ text: "Note: saved" }, "{text: 'Note: saved'}"],
    [{ text: "It's 42" }, "{text: It's 42}"],
    [{ text: "42" }, "{text: '42'}"],
    [{ text: "yes" }, "{text: 'yes'}"],
    [{ text: "'quoted'" }, "{text: '''quoted'''}"],
    [{ css: 'meta[name="app-version"]' }, `{css: 'meta[name="app-version"]'}`],
    [{ role: "button", name: "Delete", within: { role: "row", name: "Invoice 42" } }, "{role: button, name: Delete, within: {role: row, name: Invoice 42}}"],
  ])("writes %j as %s", (t, want) => {
    expect(targetYaml(t)).toBe(want);
  });
});
