// The colour theme: the system's preference, or the user's choice of light or dark, kept in
// localStorage and applied as data-theme on <html>, where the stylesheet reads it.
import { useEffect, useState } from "react";

/** What the user chose. */
export type ThemeChoice = "system" | "light" | "dark";

/** The localStorage key of the choice. */
const KEY = "observatory.theme";

/** The stored choice; "system" when there is none or it is not one. */
export function storedTheme(): ThemeChoice {
  const v = typeof localStorage === "undefined" ? null : localStorage.getItem(KEY);
  return v === "light" || v === "dark" ? v : "system";
}

/** The theme a choice gives, given whether the system prefers dark. */
export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): "light" | "dark" {
  return choice === "system" ? (prefersDark ? "dark" : "light") : choice;
}

const darkQuery = () => (typeof matchMedia === "undefined" ? null : matchMedia("(prefers-color-scheme: dark)"));

/** Sets data-theme on the document for a choice, now. main.tsx calls it before the first paint. */
export function applyTheme(choice: ThemeChoice, doc: Document = document) {
  doc.documentElement.dataset.theme = resolveTheme(choice, darkQuery()?.matches ?? false);
}

/** The choice and its setter; the document follows the choice and, for "system", the system. */
export function useTheme(): [ThemeChoice, (c: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  useEffect(() => {
    applyTheme(choice);
    try {
      if (choice === "system") localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      // A full or disabled storage only forgets the choice.
    }
    const q = darkQuery();
    if (choice !== "system" || !q) return;
    const follow = () => applyTheme("system");
    q.addEventListener("change", follow);
    return () => q.removeEventListener("change", follow);
  }, [choice]);
  return [choice, setChoice];
}
