// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { NetRequest } from "../api/types";
import { ConsoleList } from "./ConsoleList";
import { NetworkPanel } from "./NetworkPanel";
import { PageErrorList } from "./PageErrorList";

const requests: NetRequest[] = [
  { method: "GET", url: "http://127.0.0.1:1/", resource_type: "document", status: 200, status_text: "OK", start_ms: 5, duration_ms: 12, size: 900 },
  {
    method: "POST",
    url: "http://127.0.0.1:1/api/reservations",
    resource_type: "fetch",
    status: 409,
    status_text: "Conflict",
    start_ms: 310,
    duration_ms: 40,
    size: 64,
    request_headers: [{ name: "authorization", value: "••••••" }],
    request_body: { mime_type: "application/json", text: '{"room":"north"}' },
    response_body: { mime_type: "application/json", text: '{"error":"Save refused"}', truncated: true },
  },
  { method: "GET", url: "http://127.0.0.1:2/lost", resource_type: "fetch", start_ms: 360, duration_ms: 2, size: -1, failure: "net::ERR_CONNECTION_REFUSED" },
];

const options = () => within(screen.getByRole("listbox", { name: "Requests" })).getAllByRole("option");

describe("NetworkPanel", () => {
  it("lists every request, marks the failed ones in words and shows the chosen one in full", () => {
    render(<NetworkPanel requests={requests} dropped={2} />);
    expect(options().map((o) => o.textContent)).toEqual([
      expect.stringMatching(/^GET200\/document12 ms900 B$/),
      expect.stringMatching(/^POST409\/api\/reservationsfetch40 ms64 Bfailed: 409 Conflict$/),
      expect.stringMatching(/^GETfailed\/lostfetch2 msunknownfailed: net::ERR_CONNECTION_REFUSED$/),
    ]);
    expect(screen.getByText(/2 failed/)).toBeTruthy();
    expect(screen.getByText("2 more requests dropped")).toBeTruthy();
    const detail = () => within(screen.getByRole("region", { name: "Request detail" }));
    expect(options()[1].getAttribute("aria-selected")).toBe("true"); // the first failed one
    fireEvent.click(options()[0]);
    expect(options()[0].getAttribute("aria-selected")).toBe("true");
    expect(detail().getByText("200 OK")).toBeTruthy();
    expect(detail().getAllByText(/Not recorded: bodies are kept only/)).toHaveLength(2);

    fireEvent.click(options()[1]);
    expect(options()[1].getAttribute("aria-selected")).toBe("true");
    expect(detail().getByText("409 Conflict")).toBeTruthy();
    expect(detail().getByText("started 310 ms into the attempt, took 40 ms")).toBeTruthy();
    expect(detail().getByText("64 B")).toBeTruthy();
    expect(detail().getByText("••••••")).toBeTruthy();
    expect(detail().getByText('{"room":"north"}')).toBeTruthy();
    expect(detail().getByText('{"error":"Save refused"}')).toBeTruthy();
    expect(detail().getByText("Only the start of the body was kept.")).toBeTruthy();
  });

  it("moves the choice with the arrow keys, Home and End", () => {
    render(<NetworkPanel requests={requests} />);
    const list = screen.getByRole("listbox", { name: "Requests" });
    const chosen = () => options().findIndex((o) => o.getAttribute("aria-selected") === "true");
    expect(chosen()).toBe(1); // the first failed one
    fireEvent.keyDown(list, { key: "ArrowUp" });
    expect(chosen()).toBe(0);
    fireEvent.keyDown(list, { key: "ArrowDown" });
    expect(chosen()).toBe(1);
    expect(list.getAttribute("aria-activedescendant")).toBe(options()[1].id);
    fireEvent.keyDown(list, { key: "End" });
    expect(chosen()).toBe(2);
    fireEvent.keyDown(list, { key: "ArrowDown" });
    expect(chosen()).toBe(2);
    fireEvent.keyDown(list, { key: "Home" });
    expect(chosen()).toBe(0);
    fireEvent.keyDown(list, { key: "ArrowUp" });
    expect(chosen()).toBe(0);
  });

  it("filters by text and by status", () => {
    render(<NetworkPanel requests={requests} />);
    fireEvent.change(screen.getByRole("combobox", { name: "Status" }), { target: { value: "failed" } });
    expect(options().map((o) => o.querySelector(".url")!.textContent)).toEqual(["/api/reservations", "/lost"]);
    fireEvent.change(screen.getByRole("combobox", { name: "Status" }), { target: { value: "http-error" } });
    expect(options().map((o) => o.querySelector(".url")!.textContent)).toEqual(["/api/reservations"]);
    fireEvent.change(screen.getByRole("combobox", { name: "Status" }), { target: { value: "all" } });
    fireEvent.change(screen.getByRole("searchbox", { name: "Filter" }), { target: { value: "LOST fetch" } });
    expect(options().map((o) => o.querySelector(".url")!.textContent)).toEqual(["/lost"]);
    expect(screen.getByText("1 of 3")).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: "Filter" }), { target: { value: "nothing-like-this" } });
    expect(screen.getByText("No request matches the filters.")).toBeTruthy();
  });

  it("says when a step made no request", () => {
    render(<NetworkPanel requests={[]} />);
    expect(screen.getByText("This step sent no request.")).toBeTruthy();
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});

describe("ConsoleList and PageErrorList", () => {
  it("lists console messages with level, text and location, filtered by text", () => {
    render(
      <ConsoleList
        messages={[
          { level: "error", text: "save failed with 409", location: "http://127.0.0.1:1/app.js:30:9", at_ms: 352 },
          { level: "log", text: "opened the dialog", at_ms: 120 },
        ]}
        dropped={1}
      />,
    );
    expect(screen.getByText("save failed with 409")).toBeTruthy();
    expect(screen.getByText("http://127.0.0.1:1/app.js:30:9")).toBeTruthy();
    expect(screen.getByText("1 more message dropped")).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: "Filter" }), { target: { value: "error" } });
    expect(screen.queryByText("opened the dialog")).toBeNull();
    expect(screen.getByText("1 of 2")).toBeTruthy();
  });

  it("lists page errors with their stacks, and says when there are none", () => {
    const { rerender } = render(<PageErrorList errors={[{ message: "kaboom", stack: "Error: kaboom\n    at app.js:18:30", at_ms: 170 }]} />);
    expect(screen.getByText("kaboom")).toBeTruthy();
    expect(screen.getByText(/at app\.js:18:30/).tagName).toBe("PRE");
    rerender(<PageErrorList errors={[]} />);
    expect(screen.getByText("The page threw no uncaught error during this step.")).toBeTruthy();
  });
});
