// Icons drawn inline, for marks whose characters some platforms' fonts lack (U+23F8 has no
// glyph in Debian's Chromium fonts, and shows as an empty box).

/** A pause mark, two bars, in the text's colour and size. */
export function PauseIcon({ label }: { label?: string }) {
  return (
    <svg className="icon" viewBox="0 0 10 10" width="0.9em" height="0.9em" aria-label={label} aria-hidden={label ? undefined : true} role={label ? "img" : undefined}>
      <rect x="1.5" y="1" width="2.5" height="8" fill="currentColor" />
      <rect x="6" y="1" width="2.5" height="8" fill="currentColor" />
    </svg>
  );
}
