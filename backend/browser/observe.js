() => {
  // Samples the page in one round trip and returns it as JSON in the shape of agent.Sample.
  // It runs with aria.js's helpers (visible, text, role, name) declared first (see pageScript).
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
  return JSON.stringify(sample);
}
