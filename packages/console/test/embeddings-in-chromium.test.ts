import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { startLoopbackEmbeddingsServer, type LoopbackEmbeddingsServer } from "../../server/test/embeddings/loopback-embeddings-server.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

const KEY = "sk-console-embeddings-42";

/**
 * The Settings screen's Embeddings section in Chromium, against a scripted OpenAI-compatible server
 * on loopback: the provider in use, a change with its progress while the server holds the batch,
 * the switch, a wrong key's failure with the provider's message and Retry, and the key never shown.
 */
describeNeeding("chromium-headless-shell")("the console's Embeddings section, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let server: LoopbackEmbeddingsServer;

  beforeAll(async () => {
    server = await startLoopbackEmbeddingsServer({ apiKey: KEY, model: "nomic-embed-text", dimensions: 8 });
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: "true" }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
    await server?.close();
  });

  it("happy: choose a server, watch the progress, see the switch; a wrong key fails with the provider's message; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "ema@acme-bikes.test", name: "Ema", role: "admin" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-embeddings-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const section = page.getByRole("region", { name: "Embeddings" });
    await poll(() => section.getByRole("status").textContent()).toContain("In use: The instance's default (hashing:v1:384)");
    const form = section.getByRole("form", { name: "Choose the embeddings provider" });

    server.pause();
    await form.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
    await form.getByLabel("Base URL").fill(server.origin);
    await form.getByLabel("Model", { exact: true }).fill("nomic-embed-text");
    await form.getByRole("button", { name: "Save and re-embed" }).click();
    // The server's 422 names the field: wait for it (the label's own "Dimensions" is on screen already).
    await poll(() => form.getByLabel("Dimensions (unless an OpenAI model)").getAttribute("aria-invalid")).toBe("true");
    await form.getByLabel("Dimensions (unless an OpenAI model)").fill("8");
    await form.getByLabel("API key (optional)").fill(KEY);
    await form.getByRole("button", { name: "Save and re-embed" }).click();
    const progress = section.getByRole("group", { name: "Re-embedding" });
    await poll(() => progress.textContent()).toMatch(/0 of \d+ chunks/);
    expect(await section.getByRole("status").textContent()).toContain("The instance's default");
    await screenshotWhole(page, ".settings", "console-embeddings-progress.png");
    expect(await seriousViolations(page)).toEqual([]);

    server.resume();
    await poll(() => section.getByRole("status").textContent(), 60_000).toContain("In use: OpenAI-compatible server");
    await poll(() => progress.isVisible()).toBe(false);
    expect(await section.getByRole("status").textContent()).toContain("openai:nomic-embed-text:8");
    expect(await page.content()).not.toContain(KEY);

    // Another model name on the same server, a wrong key: the server's refusal is shown, answers stay on the current vectors.
    await form.getByLabel("Dimensions (unless an OpenAI model)").fill("8");
    await form.getByLabel("Model", { exact: true }).fill("nomic-embed-text-v2");
    await form.getByLabel("API key (leave empty to keep the stored one)").fill("sk-wrong");
    await form.getByRole("button", { name: "Save and re-embed" }).click();
    await poll(() => progress.getByRole("alert").textContent(), 60_000).toContain("Incorrect API key provided");
    expect(await section.getByRole("status").textContent()).toContain("openai:nomic-embed-text:8");
    await screenshotWhole(page, ".settings", "console-embeddings-failed.png");
    expect(await seriousViolations(page)).toEqual([]);
    await progress.getByRole("button", { name: "Retry" }).click();
    await poll(() => progress.getByRole("alert").textContent(), 60_000).toContain("Incorrect API key provided");
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
