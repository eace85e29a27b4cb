// Which key presses the window's own shortcuts may take. Pure.

/**
 * True when a key press belongs to the element it was pressed in: a form control, a video,
 * editable text, or a widget that uses the arrow keys itself (tabs, splitters, lists, the timeline's marks).
 */
export function ownsKeys(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return (
    ["INPUT", "SELECT", "TEXTAREA", "VIDEO"].includes(el.tagName) ||
    el.isContentEditable ||
    !!el.closest?.('[role="tablist"], [role="separator"], [role="listbox"]')
  );
}

/** True when a key press types into the element it was pressed in: a text field or editable text (a character key belongs there). */
export function typesText(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) || el.isContentEditable;
}

/** True for a key press with a modifier: the browser's and the system's, not ours. */
export function modified(e: KeyboardEvent): boolean {
  return e.altKey || e.ctrlKey || e.metaKey;
}
