import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { createAnswerModels } from "../../server/src/answering/generate/create-answer-models.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { TEST_JWT_SECRET } from "../../server/test/support/test-app.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

const KEY = "sk-local-model-key-4321";
const JSON_HEADERS = { "content-type": "application/json" };

/**
 * Settings → AI model and the agent editor's Answers in Chromium: the address guard's refusal of a
 * preset's local address beside the field, the Test button showing the provider's own error and
 * then its success, the key saved and never shown again (its last 4 characters only), and an
 * agent given its own model and instructions.
 */
describeNeeding("chromium-headless-shell")("the console's AI model settings, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  it("happy: refuse a local address, test (provider's error, then success), save the key write-only, set an agent's model and instructions; no serious axe violation", { timeout: 120_000 }, async () => {
    const { page, pageErrors } = await signedInOperator(browser, stage, { email: "mo@acme-bikes.test", name: "Mo", role: "admin" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-ai-model-failure.png"), fullPage: true });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const section = page.getByRole("region", { name: "AI model" });
    await poll(() => section.getByLabel("Provider", { exact: true }).isVisible()).toBe(true);
    expect(await section.textContent()).toContain("openai model gpt-4o-mini");

    await section.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
    await section.getByRole("button", { name: "Ollama" }).click();
    expect(await section.getByLabel("Base URL").inputValue()).toBe("http://localhost:11434/v1");
    await section.getByLabel("Model", { exact: true }).fill("llama3.1");
    await section.getByRole("button", { name: "Save" }).click();
    await poll(() => section.getByText(/localhost resolves to .* \(loopback\)/).first().isVisible()).toBe(true);
    expect(await section.getByLabel("Base URL").getAttribute("aria-invalid")).toBe("true");
    expect(await section.getByRole("alert").textContent()).toContain("FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS");

    // As FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true would: the loopback model server is allowed from now on.
    const guarded = stage.t.services.answerModels;
    stage.t.services.answerModels = createAnswerModels({ ...stage.t.services.config, models: { allowPrivateNetworks: true } }, TEST_JWT_SECRET);
    await guarded.close();

    await section.getByLabel("Base URL").fill(`${stage.model.origin}/v1`);
    await section.getByLabel(/API key/).fill("sk-wrong");
    stage.model.respondWith({
      status: 401,
      headers: JSON_HEADERS,
      steps: [{ write: JSON.stringify({ error: { message: "Incorrect API key provided: sk-wrong.", type: "invalid_request_error", param: null, code: "invalid_api_key" } }) }],
    });
    await section.getByRole("button", { name: "Test" }).click();
    const failed = section.locator(".ai-model-test-failed");
    await poll(() => failed.textContent()).toContain("failed with 401: Incorrect API key provided: sk-wrong.");
    expect(await failed.textContent()).toContain("invalid_api_key");
    await screenshotWhole(page, ".settings", "console-ai-model-test-failed.png");

    await section.getByLabel(/API key/).fill(KEY);
    stage.model.respondWith({
      status: 200,
      headers: JSON_HEADERS,
      steps: [{ write: JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "llama3.1", choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }] }) }],
    });
    await section.getByRole("button", { name: "Test" }).click();
    await poll(() => section.locator(".ai-model-test-ok").textContent()).toMatch(/openai-compatible:llama3\.1 answered in \d+ ms: “OK”/);
    expect(stage.model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    await section.getByRole("button", { name: "Save" }).click();
    await poll(() => section.getByLabel(/API key/).getAttribute("placeholder")).toBe("Stored (…4321): leave empty to keep it");
    expect(await section.getByLabel(/API key/).inputValue()).toBe("");
    expect(await page.content()).not.toContain(KEY);
    await screenshotWhole(page, ".settings", "console-ai-model-saved.png");
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${stage.serviceUrl}/console/agents/${stage.tenant.agentId}`);
    await poll(() => page.getByLabel("Answer model").isVisible()).toBe(true);
    await page.getByLabel("Answer model").selectOption("named");
    await page.getByLabel("Model name").fill("qwen2.5");
    await page.getByLabel("Instructions to the model").fill("Always mention the 2-year warranty.");
    await page.getByLabel("Answer length").selectOption("short");
    await page.getByLabel("When it is unsure").selectOption("say_unknown");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByRole("status").filter({ hasText: /Saved at/ }).count()).toBe(1);
    const { rows } = await stage.t.services.db.query<{ answer_model: string; instructions: object }>(`SELECT answer_model, instructions FROM agents WHERE id = $1`, [stage.tenant.agentId]);
    expect(rows[0]).toEqual({ answer_model: "qwen2.5", instructions: { rules: "Always mention the 2-year warranty.", length: "short", when_unsure: "say_unknown" } });
    await page.getByRole("group", { name: "Answers" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "console-agent-answers.png") });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Instructions to the model").fill("x".repeat(2000));
    await page.getByLabel("Model name").fill("two words");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByLabel("Model name").getAttribute("aria-invalid")).toBe("true");
    expect(pageErrors).toEqual([]);
  });
});
