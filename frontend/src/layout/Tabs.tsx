import { useId, useRef, type ReactNode } from "react";

/** One tab: its id, its label and what its panel shows. */
export interface Tab {
  id: string;
  label: ReactNode;
  panel: () => ReactNode;
}

/** Props of Tabs. */
export interface TabsProps {
  label: string;
  tabs: Tab[];
  /** The chosen tab's id; the first tab when it names none of them. */
  current: string;
  onChoose(id: string): void;
}

/**
 * A tab list and the chosen tab's panel (WAI-ARIA tabs, activated on focus): Left/Right and
 * Home/End move between tabs once the focus came by the keyboard; a tab clicked gives the focus
 * back, so the window's own arrow keys (stepping a trace) go on working. Only the chosen panel
 * is rendered.
 */
export function Tabs({ label, tabs, current, onChoose }: TabsProps) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const chosen = tabs.find((t) => t.id === current) ?? tabs[0];
  const k = tabs.indexOf(chosen);
  const go = (to: number) => {
    const t = tabs[(to + tabs.length) % tabs.length];
    onChoose(t.id);
    list.current?.querySelector<HTMLElement>(`[data-tab="${t.id}"]`)?.focus();
  };
  return (
    <div className="tabs">
      <div
        role="tablist"
        aria-label={label}
        ref={list}
        onKeyDown={(e) => {
          const to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: tabs.length - 1 }[e.key];
          if (to === undefined) return;
          e.preventDefault();
          e.stopPropagation();
          go(to);
        }}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-${t.id}`}
            data-tab={t.id}
            aria-selected={t === chosen}
            aria-controls={`${base}-panel`}
            tabIndex={t === chosen ? 0 : -1}
            onClick={(e) => {
              onChoose(t.id);
              // A tab chosen with the pointer gives the focus back, so ←/→ go on stepping
              // through the trace; one chosen from the keyboard keeps it, for the arrows here.
              if (e.detail > 0) e.currentTarget.blur();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      {chosen && (
        <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${chosen.id}`} className="tab-panel" tabIndex={0}>
          {chosen.panel()}
        </div>
      )}
    </div>
  );
}
