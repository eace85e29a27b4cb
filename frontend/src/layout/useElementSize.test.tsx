// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useElementSize, useResized } from "./useElementSize";

/** The observers made, as jsdom has no ResizeObserver of its own: a test resizes by calling them. */
let observers: FakeObserver[] = [];

class FakeObserver {
  watched: Element[] = [];
  connected = true;
  constructor(readonly call: () => void) {
    observers.push(this);
  }
  observe(el: Element) {
    this.watched.push(el);
  }
  disconnect() {
    this.connected = false;
  }
}

/** Lays the element with the given test id out at w×h px and tells its live observers, as a browser would. */
function resize(testId: string, w: number, h: number) {
  const el = screen.getByTestId(testId);
  el.dataset.w = String(w);
  el.dataset.h = String(h);
  act(() => observers.filter((o) => o.connected && o.watched.includes(el)).forEach((o) => o.call()));
}

beforeEach(() => {
  observers = [];
  vi.stubGlobal("ResizeObserver", FakeObserver);
  // jsdom lays nothing out: an element's client size is what its data-w and data-h say.
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: dimension("w") });
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: dimension("h") });
});

afterEach(() => {
  vi.unstubAllGlobals();
  // jsdom's own getters are Element's, which these shadowed.
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

/** The getter of a laid-out dimension, read from the element's data attribute. */
function dimension(key: "w" | "h") {
  return function (this: HTMLElement) {
    return Number(this.dataset[key] ?? 0);
  };
}

/** Shows the size useElementSize reads of a box drawn while shown, followed while watch. */
function Sized({ shown = true, watch = true, w = 300, h = 200 }: { shown?: boolean; watch?: boolean; w?: number; h?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, watch);
  return (
    <>
      {shown && <div ref={box} data-testid="box" data-w={w} data-h={h} />}
      <output data-testid="size">{`${size.width}×${size.height}`}</output>
    </>
  );
}

describe("useElementSize", () => {
  it("reads the element's size before the first paint and again when it is resized", () => {
    render(<Sized />);
    expect(screen.getByTestId("size").textContent).toBe("300×200");
    resize("box", 420, 90);
    expect(screen.getByTestId("size").textContent).toBe("420×90");
  });

  it("stops watching once unmounted", () => {
    const { unmount } = render(<Sized />);
    expect(observers.map((o) => o.connected)).toEqual([true]);
    unmount();
    expect(observers.map((o) => o.connected)).toEqual([false]);
  });

  it("is 0×0 until there is an element, and reads one drawn later once watch says it is there", () => {
    const { rerender } = render(<Sized shown={false} watch={false} />);
    expect(screen.getByTestId("size").textContent).toBe("0×0");
    expect(observers).toHaveLength(0);
    rerender(<Sized shown watch />);
    expect(screen.getByTestId("size").textContent).toBe("300×200");
  });

  it("keeps the last size while watch is false, and reads the element afresh when it turns true", () => {
    const { rerender } = render(<Sized />);
    rerender(<Sized watch={false} w={500} />);
    expect(observers.map((o) => o.connected)).toEqual([false]);
    expect(screen.getByTestId("size").textContent).toBe("300×200");
    rerender(<Sized w={500} />);
    expect(screen.getByTestId("size").textContent).toBe("500×200");
  });

  it("reads the size once without a ResizeObserver", () => {
    vi.stubGlobal("ResizeObserver", undefined);
    render(<Sized />);
    expect(screen.getByTestId("size").textContent).toBe("300×200");
  });
});

describe("useResized", () => {
  /** Calls back with the prefix it was last rendered with and the box's width. */
  function Logged({ prefix, watch, log }: { prefix: string; watch: string; log: string[] }) {
    const box = useRef<HTMLDivElement>(null);
    useResized(box, (el) => log.push(`${prefix}${el.clientWidth}`), watch);
    return <div ref={box} data-testid="box" data-w={10} />;
  }

  it("calls the latest callback on each resize, and again only when watch changes, through one observer", () => {
    const log: string[] = [];
    const { rerender } = render(<Logged prefix="a" watch="one" log={log} />);
    expect(log).toEqual(["a10"]);
    rerender(<Logged prefix="b" watch="one" log={log} />);
    expect(log).toEqual(["a10"]);
    resize("box", 20, 0);
    expect(log).toEqual(["a10", "b20"]);
    rerender(<Logged prefix="c" watch="two" log={log} />);
    expect(log).toEqual(["a10", "b20", "c20"]);
    expect(observers.map((o) => o.connected)).toEqual([true]);
  });

  it("calls once, not again, when the observer reports the size already laid out for", () => {
    const log: string[] = [];
    const { rerender } = render(<Logged prefix="a" watch="one" log={log} />);
    // A browser's observer reports the element's size once it starts watching it.
    resize("box", 10, 0);
    expect(log).toEqual(["a10"]);
    rerender(<Logged prefix="b" watch="two" log={log} />);
    resize("box", 10, 0);
    expect(log).toEqual(["a10", "b10"]);
  });

  it("watches an element drawn later, and a new element in place of the old one", () => {
    const log: string[] = [];
    function Swapped({ which }: { which: "none" | "first" | "second" }) {
      const box = useRef<HTMLDivElement>(null);
      useResized(box, (el) => log.push(`${el.id}${el.clientWidth}`));
      return which === "none" ? null : <div key={which} id={which} ref={box} data-testid="box" data-w={5} />;
    }
    const { rerender } = render(<Swapped which="none" />);
    expect(log).toEqual([]);
    rerender(<Swapped which="first" />);
    expect(log).toEqual(["first5"]);
    rerender(<Swapped which="second" />);
    expect(log).toEqual(["first5", "second5"]);
    expect(observers.map((o) => o.connected)).toEqual([false, true]);
    resize("box", 7, 0);
    expect(log).toEqual(["first5", "second5", "second7"]);
  });
});
