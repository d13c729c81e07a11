import { join } from "node:path";
import { pino } from "pino";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { loadConfig } from "../../server/src/config/config.js";
import { registerMailWorkers } from "../../server/src/mail/register-mail-workers.js";
import { SmtpReceiver } from "../../server/test/mail/smtp-receiver.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

const W = "/api/v1/widget";
const VISITORS = ["ann@visitors.test", "ben@visitors.test", "refuse-cat@visitors.test"];

/**
 * The console's e-mail screens in Chromium, on a service without SMTP (the embedded default): the
 * banner across the console for an admin while mails wait, none for an agent (whose console never
 * asks GET /console/mail); Settings → E-mail's counts and delivery log, before and after a worker
 * starts with SMTP set (a real SMTP server on loopback that refuses one address: 550); and every
 * operator's e-mail alerts, chosen by keyboard, saved and shown again after a reload.
 */
describeNeeding("chromium-headless-shell")("the console's e-mail banner, outbox and alerts, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  const receiver = new SmtpReceiver({ refuse: (address) => address.startsWith("refuse") });

  beforeAll(async () => {
    await receiver.start();
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    // Three visitors leave their address and ask for their transcript: no SMTP, so each waits.
    for (const email of VISITORS) {
      const init = await stage.t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: stage.site.origin }, payload: { agent_id: stage.tenant.agentId, page_url: stage.site.url("/") } });
      const headers = { authorization: `Bearer ${init.json().data.jwt}` };
      await stage.t.app.inject({ method: "POST", url: `${W}/messages`, headers, payload: { message: "Do you ship to Lisbon?" } });
      expect((await stage.t.app.inject({ method: "POST", url: `${W}/leads`, headers, payload: { email } })).statusCode).toBe(201);
      const asked = await stage.t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers, payload: {} });
      expect(asked.json()).toEqual({ data: { status: "waiting" } });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
    await receiver.close();
  });

  it("happy: an admin sees the banner (3 waiting, a link to the SMTP docs) and the E-mail section's counts and log; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "ada@acme-bikes.test", name: "Ada", role: "admin" });
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-mail-admin-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const banner = page.getByRole("complementary", { name: "E-mail set-up" });
    await poll(() => banner.textContent()).toContain("E-mail is not set up: 3 messages waiting.");
    expect(await banner.getByRole("link", { name: /How to set up e-mail/ }).getAttribute("href")).toBe("https://github.com/frontdesk/frontdesk/blob/main/docs/configuration.md#smtp");
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "console-mail-banner.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "console-mail-banner-dark.png") });
    await page.emulateMedia({ colorScheme: "light" });

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Settings" }).click();
    const section = page.getByRole("region", { name: "E-mail", exact: true });
    await poll(() => section.getByText("E-mail is not set up:").isVisible()).toBe(true);
    const log = section.getByRole("table", { name: "Delivery log, newest first" });
    await poll(() => log.getByRole("cell", { name: "ann@visitors.test" }).count()).toBe(1);
    expect(await log.getByRole("row").count()).toBe(1 + VISITORS.length);
    expect(await log.getByText("Waiting for e-mail set-up").count()).toBe(VISITORS.length);
    expect(await section.getByRole("definition").first().textContent()).toBe("3");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotWhole(page, ".settings", "console-mail-waiting.png");

    // The next start, with SMTP set: the waiting mails go out; the refused one fails with the server's answer.
    const config = loadConfig({ FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`, FRONTDESK_MAIL_FROM: "support@acme.test", FRONTDESK_MAIL_RETRY_BASE_MS: "200" });
    const workers = await registerMailWorkers({ ...stage.t.services, config: { ...stage.t.services.config, mail: config.mail } }, pino({ level: "silent" }));
    const failedRow = log.getByRole("row").filter({ has: page.getByRole("cell", { name: "refuse-cat@visitors.test" }) });
    try {
      await poll(() => receiver.mails.length, 30_000).toBe(2);
      await poll(async () => {
        await page.reload();
        await section.getByRole("table").waitFor();
        return failedRow.getByText("Failed").count();
      }, 30_000).toBe(1);
    } finally {
      await workers.close();
    }
    expect(await failedRow.getByRole("cell").nth(3).textContent()).toMatch(/550.*mailbox unavailable/);
    expect(await log.getByText("Sent", { exact: true }).count()).toBe(2);
    // Set up now (in this process's eyes the service still runs without SMTP: the banner stays while mails wait, and none do).
    await poll(() => banner.count()).toBe(0);
    // The status filter asks the server for the failed ones only.
    await section.getByLabel("Show").selectOption("failed");
    await poll(() => log.getByRole("row").count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await section.getByLabel("Show").selectOption("");
    await poll(() => log.getByRole("row").count()).toBe(1 + VISITORS.length);
    await section.screenshot({ path: join(ARTIFACTS, "console-mail-log.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    await section.screenshot({ path: join(ARTIFACTS, "console-mail-log-dark.png") });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("security: an agent sees no banner and no E-mail section, and the console never asks GET /console/mail; alerts are chosen by keyboard, saved and shown after a reload", async () => {
    // A mail waits again, so that an admin would see the banner.
    const init = await stage.t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: stage.site.origin }, payload: { agent_id: stage.tenant.agentId, page_url: stage.site.url("/") } });
    const headers = { authorization: `Bearer ${init.json().data.jwt}` };
    await stage.t.app.inject({ method: "POST", url: `${W}/leads`, headers, payload: { email: "dan@visitors.test" } });
    expect((await stage.t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers, payload: {} })).json()).toEqual({ data: { status: "waiting" } });

    const { page, pageErrors } = await signedInOperator(browser, stage, { email: "grace@acme-bikes.test", name: "Grace", role: "agent" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-mail-agent-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const mailRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/v1/console/mail") mailRequests.push(request.url());
    });
    await page.reload();
    const alerts = page.getByRole("region", { name: "E-mail alerts" });
    const group = alerts.getByRole("group", { name: "E-mail me" });
    await poll(() => group.getByRole("radio", { name: /^Every alert/ }).isChecked()).toBe(true);
    expect(await page.getByRole("complementary", { name: "E-mail set-up" }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "E-mail", exact: true }).count()).toBe(0);
    expect(await alerts.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await alerts.screenshot({ path: join(ARTIFACTS, "console-email-alerts.png") });

    // By keyboard: the arrow moves the choice within the group, Tab reaches Save.
    await group.getByRole("radio", { name: /^Every alert/ }).focus();
    await page.keyboard.press("ArrowDown");
    expect(await group.getByRole("radio", { name: /^Hourly digest/ }).isChecked()).toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const status = alerts.getByRole("status");
    await poll(() => status.textContent()).toBe("Saved: you get one e-mail an hour gathering the alerts.");
    expect(await seriousViolations(page)).toEqual([]);
    await alerts.screenshot({ path: join(ARTIFACTS, "console-email-alerts-saved.png") });

    await page.reload();
    await poll(() => alerts.getByRole("radio", { name: /^Hourly digest/ }).isChecked()).toBe(true);
    expect(await alerts.getByRole("radio", { name: /^Every alert/ }).isChecked()).toBe(false);
    expect(mailRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
