// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TransferList } from "./TransferList";

describe("TransferList", () => {
  it("shows the name a download was offered under beside the safe name it got", () => {
    render(
      <TransferList
        transfers={[
          { kind: "download", offered: "march-statement.pdf", saved: "march-statement (2).pdf", bytes: 79 },
          { kind: "upload", offered: "readme.txt", saved: "readme.txt", bytes: 26 },
        ]}
      />,
    );
    const rows = screen.getAllByRole("row");
    expect(rows[1].textContent).toBe("downloadmarch-statement.pdfmarch-statement (2).pdf (renamed)79");
    expect(rows[2].textContent).toBe("uploadreadme.txtreadme.txt26");
  });

  it("says when nothing moved", () => {
    render(<TransferList transfers={[]} />);
    expect(screen.getByText("No file was uploaded or saved during this step.")).toBeTruthy();
  });
});
