import { describe, expect, it } from "vitest";
import { problemsOf } from "../support/config-problems.js";
import { editDistance, unknownVariableWarnings } from "../../src/config/unknown-variables.js";


describe("settings that cannot work together", () => {
  it("error: a model answer provider without a model names FRONTDESK_LLM_MODEL", () => {
    for (const provider of ["anthropic", "openai"]) {
      expect(problemsOf({ FRONTDESK_LLM_PROVIDER: provider })).toEqual([
        `FRONTDESK_LLM_MODEL: required when FRONTDESK_LLM_PROVIDER is ${provider} (the model to ask)`,
      ]);
    }
    expect(problemsOf({ FRONTDESK_LLM_PROVIDER: "anthropic", FRONTDESK_LLM_MODEL: "claude" })).toEqual([]);
    expect(problemsOf({ FRONTDESK_LLM_PROVIDER: "extractive" })).toEqual([]);
  });

  it("error: the openai embedding provider names the base URL and the model it lacks", () => {
    const problems = problemsOf({ FRONTDESK_EMBEDDINGS_PROVIDER: "openai" });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^FRONTDESK_EMBEDDINGS_BASE_URL: required when FRONTDESK_EMBEDDINGS_PROVIDER is openai/);
    expect(problems[1]).toMatch(/^FRONTDESK_EMBEDDINGS_MODEL: required/);
    expect(problemsOf({ FRONTDESK_EMBEDDINGS_PROVIDER: "openai", FRONTDESK_EMBEDDINGS_BASE_URL: "http://127.0.0.1:1", FRONTDESK_EMBEDDINGS_MODEL: "m" })).toEqual([]);
  });
});

describe("unknown FRONTDESK_* variables", () => {
  it("happy: known settings, other prefixes and the test suite's FRONTDESK_TEST_* variables draw no warning", () => {
    expect(unknownVariableWarnings({ FRONTDESK_PORT: "1", PORT: "2", FRONTDESK_TEST_POSTGRES_URL: "postgres://x", FRONTDESK_TEST_REQUIRE_ALL: "1" })).toEqual([]);
  });

  it("error: a typo is named with the closest known setting", () => {
    expect(unknownVariableWarnings({ FRONTDESK_PROT: "8080" })).toEqual([
      "FRONTDESK_PROT is not a Frontdesk setting and is ignored; did you mean FRONTDESK_PORT?",
    ]);
    expect(unknownVariableWarnings({ FRONTDESK_LLM_MODLE: "x", FRONTDESK_DATABSE_URL: "y" })).toEqual([
      "FRONTDESK_DATABSE_URL is not a Frontdesk setting and is ignored; did you mean FRONTDESK_DATABASE_URL?",
      "FRONTDESK_LLM_MODLE is not a Frontdesk setting and is ignored; did you mean FRONTDESK_LLM_MODEL?",
    ]);
  });

  it("error: a name close to nothing is still named, without a guess", () => {
    const [warning] = unknownVariableWarnings({ FRONTDESK_COMPLETELY_DIFFERENT: "1" });
    expect(warning).toMatch(/^FRONTDESK_COMPLETELY_DIFFERENT is not a Frontdesk setting and is ignored \(/);
    expect(warning).not.toContain("did you mean");
  });

  it("happy: the edit distance counts a swap of neighbours as one edit", () => {
    expect(editDistance("PROT", "PORT")).toBe(1);
    expect(editDistance("PORT", "PORT")).toBe(0);
    expect(editDistance("HOST", "PORT")).toBe(2);
    expect(editDistance("", "ABC")).toBe(3);
  });
});
