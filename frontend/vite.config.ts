import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The build goes to dist/, which the Go binary embeds (dist/index.html must stay there).
// public/.gitkeep is copied into dist/ so the committed placeholder survives emptyOutDir.
export default defineConfig({
  plugins: [react()],
  base: "./",
  build: { outDir: "dist", emptyOutDir: true },
  test: {
    // Pure modules run in node; component tests ask for jsdom in their first line.
    environment: "node",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    // Generous limits: CI shares 2 cores with browser tests, and a slow test is not a failure.
    testTimeout: 20000,
  },
});
