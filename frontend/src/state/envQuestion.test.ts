import { describe, expect, it } from "vitest";
import { envQuestion } from "./envQuestion";

describe("envQuestion", () => {
  it("names each variable, where it is read, and which look secret", () => {
    const q = envQuestion([
      { name: "AWS_SECRET_ACCESS_KEY", fields: ["base_url"], secret: true },
      { name: "APP_HOST", fields: ["success[0].http.headers.Host", "plan[1].value_env"] },
    ]);
    expect(q).toContain("• AWS_SECRET_ACCESS_KEY (base_url): its name looks secret");
    expect(q).toContain("• APP_HOST (success[0].http.headers.Host, plan[1].value_env)\n");
    expect(q).toContain("Allow this run to read them?");
  });
});
