// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Settings } from "../api/types";
import { fakeApi } from "../test/fakeApi";
import { SettingsPanel } from "./SettingsPanel";

const settings: Settings = { config: {}, headed: false, browser_path: "", video: true, screenshots: true, trace: false };
const local = { provider: "openai" as const, model: "llama3.2", base_url: "http://127.0.0.1:11434/v1", api_key_env: "" };

describe("SettingsPanel's models", () => {
  it("adds a model and the planner choice, removes one, and saves the list", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={{ ...settings, models: [local] }} onSave={onSave} onTestModel={fakeApi().api.settings.testModel} />);
    expect(screen.getByLabelText("Model 1")).toHaveProperty("value", "llama3.2");
    fireEvent.click(screen.getByRole("button", { name: "Add model" }));
    expect(screen.getByLabelText("Key variable of model 2")).toHaveProperty("value", "OPENAI_API_KEY");
    fireEvent.change(screen.getByLabelText("Provider of model 2"), { target: { value: "anthropic" } });
    fireEvent.change(screen.getByLabelText("Model 2"), { target: { value: "claude-sonnet-4-5" } });
    fireEvent.change(screen.getByLabelText("Key variable of model 2"), { target: { value: "ANTHROPIC_API_KEY" } });
    fireEvent.change(screen.getByLabelText("Runs started here are planned by"), { target: { value: "model" } });
    fireEvent.click(screen.getByRole("button", { name: "Remove model 1" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({
      ...settings,
      planner: "model",
      models: [{ provider: "anthropic", model: "claude-sonnet-4-5", base_url: "", api_key_env: "ANTHROPIC_API_KEY" }],
    });
  });

  it("tests a model and shows its reply, or the error, beside it", async () => {
    const { api } = fakeApi();
    render(<SettingsPanel settings={{ ...settings, models: [local, { ...local, model: "nope" }] }} onSave={vi.fn()} onTestModel={api.settings.testModel} />);
    fireEvent.click(screen.getByRole("button", { name: "Test model 1" }));
    expect(api.settings.testModel).toHaveBeenCalledWith(local);
    const first = screen.getByTestId("model-test-1");
    expect(first.getAttribute("aria-live")).toBe("polite");
    expect(await within(first.parentElement!).findByText("openai:tiny answered in 42 ms: Connected. · done({})")).toBeTruthy();

    vi.mocked(api.settings.testModel).mockRejectedValueOnce(new Error("openai:nope did not answer: The model `nope` does not exist"));
    fireEvent.click(screen.getByRole("button", { name: "Test model 2" }));
    expect(await screen.findByText("openai:nope did not answer: The model `nope` does not exist")).toBeTruthy();
    expect(screen.getByTestId("model-test-2").className).toContain("warn");
  });

  it("shows no key, only the variable that holds it", () => {
    render(<SettingsPanel settings={{ ...settings, models: [{ ...local, api_key_env: "OPENAI_API_KEY" }] }} onSave={vi.fn()} />);
    expect(screen.getByLabelText("Key variable of model 1")).toHaveProperty("value", "OPENAI_API_KEY");
    expect(screen.queryByRole("button", { name: "Test model 1" })).toBeNull();
    expect(screen.getByLabelText("Runs started here are planned by")).toHaveProperty("value", "script");
  });

  it("keeps each model's prices, and stores a key typed here in the OS keyring, never in the settings", async () => {
    const onSave = vi.fn();
    const { api } = fakeApi();
    render(<SettingsPanel settings={{ ...settings, models: [local] }} onSave={onSave} onStoreKey={api.settings.storeKey} />);
    fireEvent.change(screen.getByLabelText("Input price of model 1 ($ per million tokens)"), { target: { value: "0.4" } });
    fireEvent.change(screen.getByLabelText("Output price of model 1 ($ per million tokens)"), { target: { value: "1.6" } });
    fireEvent.change(screen.getByLabelText("Key of model 1 from"), { target: { value: "keyring" } });
    expect(screen.queryByLabelText("Key variable of model 1")).toBeNull();
    fireEvent.change(screen.getByLabelText("Keyring entry of model 1"), { target: { value: "local-llm" } });
    fireEvent.change(screen.getByLabelText("Key for model 1"), { target: { value: "sk-typed-here" } });
    fireEvent.click(screen.getByRole("button", { name: "Store key of model 1" }));
    expect(api.settings.storeKey).toHaveBeenCalledWith("local-llm", "sk-typed-here");
    expect(await screen.findByText("Stored in the OS keyring as local-llm.")).toBeTruthy();
    expect(screen.getByLabelText("Key for model 1")).toHaveProperty("value", "");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const saved = onSave.mock.calls[0][0] as Settings;
    expect(saved.models).toEqual([{ ...local, api_key_env: undefined, api_key_keyring: "local-llm", price_in_per_mtok: 0.4, price_out_per_mtok: 1.6 }]);
    expect(JSON.stringify(saved)).not.toContain("sk-typed-here");
  });
});
