import { afterEach, beforeAll } from "vitest";

// DOM tests only: wait up to 5 s for findBy* queries (the machine may be busy), and unmount
// what each test rendered so global key listeners do not leak between tests; a deep link one
// test left in the location hash, or a pane size in localStorage, must not open in the next.
beforeAll(async () => {
  if (typeof document === "undefined") return;
  const { configure } = await import("@testing-library/react");
  configure({ asyncUtilTimeout: 5000 });
});

afterEach(async () => {
  if (typeof document === "undefined") return;
  const { cleanup } = await import("@testing-library/react");
  cleanup();
  window.history.replaceState(null, "", "/");
  localStorage.clear();
});
