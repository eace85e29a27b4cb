// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { AttemptRequest } from "../api/types";
import { AttemptNetwork } from "./AttemptNetwork";

const req = (r: Partial<AttemptRequest>): AttemptRequest => ({ step: 0, method: "GET", url: "http://h/", resource_type: "fetch", start_ms: 0, duration_ms: 0, size: 0, ...r });
const requests = [
  req({ step: 0, url: "http://h/", resource_type: "document", status: 200, size: 900 }),
  req({ step: 3, url: "http://h/api/save", method: "POST", status: 204, size: -1, start_ms: 700 }),
  req({ step: 3, url: "http://h/api/save?again", method: "POST", status: 409, status_text: "Conflict", size: 30, start_ms: 650 }),
];

/** The URL column's texts, top to bottom. */
const urls = () => screen.getAllByRole("row").slice(1).map((tr) => within(tr).getAllByRole("cell")[4].textContent);

describe("AttemptNetwork", () => {
  it("lists every step's requests, the failed first and chosen, sorts by a heading, filters by type, and goes to a request's step", async () => {
    const load = vi.fn().mockResolvedValue({ requests, dropped: 2 });
    const onStep = vi.fn();
    render(<AttemptNetwork runId="r1" slug="a" load={load} onStep={onStep} />);
    expect(await screen.findByText(/2 more left out/)).toBeTruthy();
    expect(load).toHaveBeenCalledWith("r1", "a");
    expect(urls()).toEqual(["/api/save?again", "/", "/api/save"]);
    expect(screen.getByText("Failed: 409 Conflict, in step 4")).toBeTruthy();
    expect(screen.getByRole("button", { name: "/api/save?again" }).getAttribute("aria-current")).toBe("true");
    expect(screen.getAllByText("unknown")).toHaveLength(1); // a size of -1

    fireEvent.click(screen.getByRole("checkbox", { name: "Failed first" }));
    fireEvent.click(screen.getByRole("button", { name: "Size" }));
    expect(screen.getByRole("columnheader", { name: /Size/ }).getAttribute("aria-sort")).toBe("ascending");
    expect(urls()).toEqual(["/api/save?again", "/", "/api/save"]);
    fireEvent.click(screen.getByRole("button", { name: /Size/ }));
    expect(screen.getByRole("columnheader", { name: /Size/ }).getAttribute("aria-sort")).toBe("descending");
    expect(urls()).toEqual(["/", "/api/save?again", "/api/save"]); // unknown last either way

    fireEvent.click(screen.getByRole("button", { name: "Document" }));
    expect(urls()).toEqual(["/"]);
    fireEvent.click(screen.getByRole("button", { name: "Fetch/XHR" }));
    fireEvent.click(screen.getByRole("button", { name: "/api/save" }));
    expect(screen.getByText("204, in step 4")).toBeTruthy();
    fireEvent.click(within(screen.getAllByRole("row")[1]).getByRole("button", { name: "4" }));
    expect(onStep).toHaveBeenCalledWith(3);
  });

  it("says why the requests could not be read", async () => {
    render(<AttemptNetwork runId="r1" slug="a" load={() => Promise.reject(new Error("no attempt"))} onStep={() => {}} />);
    expect((await screen.findByRole("alert")).textContent).toContain("no attempt");
  });
});
