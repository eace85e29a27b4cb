import { useId } from "react";
import { useTheme, type ThemeChoice } from "../theme";

/** The colour theme: the system's, light or dark. */
export function ThemePicker() {
  const [choice, setChoice] = useTheme();
  const id = useId();
  return (
    <span className="theme-picker">
      <label htmlFor={id}>Theme</label>
      <select id={id} value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
        <option value="system">system</option>
        <option value="light">light</option>
        <option value="dark">dark</option>
      </select>
    </span>
  );
}
