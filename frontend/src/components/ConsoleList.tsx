import { useState } from "react";
import type { ConsoleMessage } from "../api/types";
import { matchesText } from "../trace/network";
import { Help } from "./Help";

/** A step's console messages, with a text filter; errors and warnings marked in words. */
export function ConsoleList({ messages, dropped = 0 }: { messages: ConsoleMessage[]; dropped?: number }) {
  const [filter, setFilter] = useState("");
  const shown = messages.filter((m) => matchesText(filter, m.level, m.text, m.location));
  return (
    <div className="console">
      <p className="tab-note muted">
        Messages written to the page's console during this step <Help term="console" topic="the console" />
      </p>
      <div className="filters">
        <label>
          Filter <input type="search" value={filter} placeholder="level, text, location" onChange={(e) => setFilter(e.target.value)} />
        </label>
        <span className="muted num" aria-live="polite">
          {shown.length} of {messages.length}
        </span>
      </div>
      {messages.length === 0 ? (
        <p className="muted">Nothing was written to the console during this step.</p>
      ) : (
        <ol className="messages">
          {shown.map((m, k) => (
            <li key={k} className={`level-${m.level}`}>
              <span className="tag level">{m.level}</span>
              <span className="text">{m.text}</span>
              <span className="muted">
                {m.location && <code>{m.location}</code>} <span className="num">at {m.at_ms} ms</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      {dropped > 0 && (
        <p className="muted">
          {dropped} more {dropped === 1 ? "message" : "messages"} dropped <Help term="dropped" topic="dropped items" />
        </p>
      )}
    </div>
  );
}
