import { join } from "node:path";
import type { Browser } from "playwright-core";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { registerWebhookWorkers } from "../../server/src/webhooks/register-webhook-workers.js";
import { verifyWebhookSignature } from "../../server/src/webhooks/webhook-signature.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { LoopbackReceiver } from "../../server/test/webhooks/loopback-receiver.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

/**
 * The Settings screen's Webhooks section in Chromium, against a loopback receiver: the server's
 * refusal of a private URL beside the field, an endpoint added (its secret shown once), a test event
 * delivered and verified with that secret, shown in the delivery log; turned off and on; deleted.
 */
describeNeeding("chromium-headless-shell")("the console's Webhooks section, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let workers: { close(): Promise<void> };
  const receiver = new LoopbackReceiver();

  beforeAll(async () => {
    await receiver.start();
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1" }), launchChromium()]);
    workers = await registerWebhookWorkers(stage.t.services, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
    await workers?.close();
    await receiver.close();
  });

  it("happy: refuse a private URL, add an endpoint (secret once), send a test event and see it delivered, turn off and on, delete; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "wes@acme-bikes.test", name: "Wes", role: "admin" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-webhooks-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const section = page.getByRole("region", { name: "Webhooks" });
    await poll(() => section.getByText("No endpoints yet.").isVisible()).toBe(true);
    const form = page.getByRole("form", { name: "Add an endpoint" });

    await form.getByLabel("URL").fill("http://10.0.0.1/hook");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await poll(() => form.getByText("10.0.0.1 is not allowed (private)").isVisible()).toBe(true);
    expect(await form.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");

    const url = receiver.on("/crm", (response) => response.end("thanks"));
    await form.getByLabel("URL").fill(url);
    await form.getByLabel("Description (optional)").fill("CRM");
    await form.getByRole("checkbox", { name: /human\.requested/ }).check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("region", { name: "New endpoint's secret" });
    await poll(() => shown.isVisible()).toBe(true);
    const secret = await shown.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshotWhole(page, ".settings", "console-webhooks-secret-once.png");
    expect(await seriousViolations(page)).toEqual([]);
    await shown.getByRole("button", { name: "Done" }).click();
    const endpoint = section.getByRole("listitem").filter({ hasText: url });
    await poll(() => endpoint.getByText("Enabled", { exact: true }).isVisible()).toBe(true);
    expect(await endpoint.textContent()).toContain("lead.created, human.requested");
    expect(await endpoint.textContent()).not.toContain(secret.slice(10));

    await endpoint.getByRole("button", { name: "Send test event" }).click();
    const log = endpoint.getByRole("region", { name: `Deliveries to ${url}` });
    await poll(async () => {
      await log.getByRole("button", { name: "Refresh" }).click();
      return log.getByRole("table").getByRole("row").filter({ hasText: "webhook.test" }).textContent();
    }).toMatch(/succeeded · 200/);
    const [delivered] = receiver.at("/crm");
    expect(verifyWebhookSignature(secret, String(delivered!.headers["frontdesk-signature"]), delivered!.body)).toBe(true);
    expect(await log.textContent()).toContain("thanks");
    await screenshotWhole(page, ".settings", "console-webhooks-deliveries.png");
    expect(await seriousViolations(page)).toEqual([]);

    await endpoint.getByRole("button", { name: "Turn off" }).click();
    await poll(() => endpoint.getByText("Turned off").isVisible()).toBe(true);
    await endpoint.getByRole("button", { name: "Enable" }).click();
    await poll(() => endpoint.getByText("Enabled", { exact: true }).isVisible()).toBe(true);

    await endpoint.getByRole("button", { name: `Delete ${url}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await poll(() => section.getByText("No endpoints yet.").isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
