import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T, timeout = 20_000) => expect.poll(read, { timeout, interval: 50 });

const QUESTION = "How long does it take to fully charge the battery?";

declare global {
  interface Window {
    axe?: { run(context: Element, options: object): Promise<{ violations: { id: string; impact?: string | null; nodes: unknown[] }[] }> };
  }
}

/**
 * Issue 30, items 5 and 6, in a real browser: the service stops under the visitor's feet (the
 * in-process app's server closed, every connection cut, then listening again on the same port, the
 * store untouched), and a page whose origin the agent does not allow.
 */
describeNeeding("chromium-headless-shell")("messages that could not be delivered, and a refused origin, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let port: number;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_LLM_PROVIDER: "extractive" }), launchChromium()]);
    port = Number(new URL(stage.serviceUrl).port);
  });
  afterAll(async () => {
    await browser?.close();
    if (stage && !stage.t.app.server.listening) await listen();
    await stage?.close();
  });

  /** The service goes away: no new connection is accepted, and the open ones (the browser's keep-alive) are cut. */
  const stopService = () =>
    new Promise<void>((resolve) => {
      stage.t.app.server.close(() => resolve());
      stage.t.app.server.closeAllConnections();
    });
  const listen = () => new Promise<void>((resolve) => stage.t.app.server.listen(port, "127.0.0.1", () => resolve()));

  const visitorMessages = async (content: string) =>
    (await stage.t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE role = 'visitor' AND content = $1`, [content])).rows[0]!.n;

  async function seriousViolations(page: Page): Promise<{ id: string; impact: string | null }[]> {
    const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: axeSource });
    return page.evaluate(async () => {
      const results = await window.axe!.run(document.querySelector("frontdesk-widget")!, { resultTypes: ["violations"] });
      return results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => ({ id: violation.id, impact: violation.impact ?? null }));
    });
  }

  it("error: a message sent while the service is down shows as not sent with Try again, survives a reload, and arrives once when the service is back", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const url = stage.hostPage("/outbox");
    const keys: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/messages/stream")) keys.push(request.headers()["idempotency-key"] ?? "");
    });
    await page.goto(url);
    await page.locator("frontdesk-widget .launcher").click();
    const composer = page.getByRole("textbox", { name: "Message" });
    await page.getByRole("dialog", { name: "Ada" }).waitFor({ state: "visible", timeout: 20_000 });
    await poll(() => page.locator("frontdesk-widget .send").isDisabled()).toBe(true);

    await stopService();
    await composer.fill(QUESTION);
    await page.keyboard.press("Enter");
    const log = page.getByRole("log", { name: "Conversation" });
    const unsent = log.locator(".msg.from-visitor.unsent", { hasText: QUESTION });
    await poll(() => unsent.count()).toBe(1);
    // In words and with a real button, inside the conversation's log (a polite live region): read out as it appears.
    expect(await unsent.getByText("Not sent").isVisible()).toBe(true);
    expect(await unsent.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
    expect(await page.getByRole("alert").textContent()).toContain("We couldn't reach the assistant.");
    await page.screenshot({ path: join(ARTIFACTS, "outbox-not-sent.png"), clip: { x: 850, y: 92, width: 430, height: 708 } });
    expect(await seriousViolations(page)).toEqual([]);
    // Kept in the tab's sessionStorage, under the agent, with the visitor it belongs to.
    const kept = await page.evaluate((agentId) => JSON.parse(sessionStorage.getItem(`frontdesk:${agentId}:outbox`) ?? "null"), stage.tenant.agentId);
    expect(kept.m).toEqual([{ body: expect.objectContaining({ message: QUESTION }), key: expect.any(String) }]);
    expect(kept.a).toBe(await page.evaluate((agentId) => localStorage.getItem(`frontdesk:${agentId}:anon`), stage.tenant.agentId));

    // The visitor reloads while the service is still down (widget.js and the bundle come from the browser's cache).
    await page.goto(url);
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => unsent.count()).toBe(1);
    expect(await unsent.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);

    // The service is back: the widget sends the message again by itself (back-off), with the same Idempotency-Key.
    await listen();
    const delivered = log.locator(".msg.from-visitor", { hasText: QUESTION });
    await poll(() => log.locator(".msg.unsent").count(), 45_000).toBe(0);
    await poll(() => log.locator(".msg.from-agent[aria-busy]").count()).toBe(0);
    await poll(() => log.locator(".msg.from-agent").last().textContent()).toContain("four hours");
    expect(await delivered.count()).toBe(1);
    expect(await visitorMessages(QUESTION)).toBe(1);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[\x20-\x7e]{1,255}$/);
    expect(await page.evaluate((agentId) => sessionStorage.getItem(`frontdesk:${agentId}:outbox`), stage.tenant.agentId)).toBeNull();
  }, 120_000);

  it("error: on a page whose origin the agent does not allow, the refusal of /rules removes the launcher before any click, with one console error", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const other = `http://localhost:${new URL(stage.site.origin).port}`;
    stage.hostPage("/refused");
    await page.goto(`${other}/refused`);
    // The launcher is painted at once, then goes when /rules answers 403 — nobody clicked.
    await poll(() => page.locator("frontdesk-widget").count()).toBe(0);
    expect(errors.filter((text) => text.startsWith("Frontdesk:"))).toEqual([
      `Frontdesk: this page's origin ${other} is not one of agent ${stage.tenant.agentId}'s allowed origins; add it with \`frontdesk admin agent update ${stage.tenant.agentId} --origin ${other}\` (with every --origin to keep).`,
    ]);
    // Nothing calls init for it, and the page's Frontdesk.open() does nothing.
    const inits: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/init")) inits.push(request.url());
    });
    await page.evaluate(() => (window as unknown as { Frontdesk: { open(): void } }).Frontdesk.open());
    await page.evaluate((url) => fetch(url, { mode: "no-cors" }).then(() => undefined), `${stage.serviceUrl}/livez`);
    expect(inits).toEqual([]);
    expect(errors.filter((text) => text.startsWith("Frontdesk:"))).toHaveLength(1);
  });
});
