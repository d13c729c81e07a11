import { afterEach, describe, expect, test, vi } from "vitest";
import { AnswerConfigError } from "../../../src/answering/generate/answer-config-error.js";
import { createAnswerGenerator } from "../../../src/answering/generate/create-answer-generator.js";
import { apiBaseUrl } from "../../../src/answering/generate/model-generator-settings.js";
import { ExtractiveAnswerGenerator } from "../../../src/answering/generate/extractive-answer-generator.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("create answer generator (happy)", () => {
  test("extractive needs nothing else", () => {
    const generator = createAnswerGenerator({ provider: "extractive" });
    expect(generator).toBeInstanceOf(ExtractiveAnswerGenerator);
    expect(generator.id).toBe("extractive");
  });

  test("model generators are named after provider and model", () => {
    expect(createAnswerGenerator({ provider: "openai", model: "llama3.1", baseUrl: "http://127.0.0.1:11434" }).id).toBe("openai:llama3.1");
    expect(createAnswerGenerator({ provider: "anthropic", model: "claude-haiku-4-5", apiKey: "sk-ant-x" }).id).toBe("anthropic:claude-haiku-4-5");
  });

  test.each([
    ["http://127.0.0.1:11434", "http://127.0.0.1:11434/v1"],
    ["http://127.0.0.1:11434/", "http://127.0.0.1:11434/v1"],
    ["http://localhost:8080/v1/", "http://localhost:8080/v1"],
    ["https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"],
    ["https://my-resource.openai.azure.com/openai/v1", "https://my-resource.openai.azure.com/openai/v1"],
  ])("the base URL %s is called as %s", (given, used) => {
    expect(apiBaseUrl(given, "https://api.openai.com/v1")).toBe(used);
  });

  test("without a base URL the provider's own is used", () => {
    expect(apiBaseUrl(undefined, "https://api.anthropic.com/v1")).toBe("https://api.anthropic.com/v1");
    expect(apiBaseUrl("  ", "https://api.openai.com/v1")).toBe("https://api.openai.com/v1");
  });
});

describe("create answer generator (error)", () => {
  test("a model provider without a model is refused at once", () => {
    expect(() => createAnswerGenerator({ provider: "openai", baseUrl: "http://127.0.0.1:11434" })).toThrow(
      new AnswerConfigError("The openai answer provider needs a model"),
    );
  });

  test("anthropic without a key is refused, even when ANTHROPIC_API_KEY is set (config is read in one place)", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-from-env");
    expect(() => createAnswerGenerator({ provider: "anthropic", model: "claude-haiku-4-5" })).toThrow(/needs an API key/);
  });

  test("a malformed base URL or timeout is refused", () => {
    expect(() => createAnswerGenerator({ provider: "openai", model: "m", baseUrl: "localhost:11434" })).toThrow(AnswerConfigError);
    expect(() => createAnswerGenerator({ provider: "openai", model: "m", baseUrl: "not a url" })).toThrow(/is not a URL/);
    expect(() => createAnswerGenerator({ provider: "openai", model: "m", timeoutSeconds: 0 })).toThrow(/positive number of seconds/);
  });
});
