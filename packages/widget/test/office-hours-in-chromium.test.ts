import { join } from "node:path";
import type { OfficeHours } from "@frontdesk/contracts";
import type { Browser, BrowserContext, Page } from "playwright-core";
import Pusher from "pusher-js";
import type { Channel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { updateAgent } from "../../server/src/tenants/update-agent.js";
import { CONSOLE, consoleChannelAuthorizer, createSignedInOperator } from "../../server/test/support/console-session.js";
import { pusherOptionsFor, type ReverbDescriptor } from "../../server/test/support/realtime-clients.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";
import { seriousViolations } from "./support/widget-axe.js";

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });
const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };
const VISITOR_ZONE = "America/New_York";
const DAY_MS = 86_400_000;
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/**
 * Office hours in a real browser (issue 30, item 4), with an operator online all along, so that
 * only the hours decide: inside them the header says how soon a person replies and asking for one
 * waits for them; outside them the away notice says when someone is back, in the visitor's own
 * time zone, and asking for a person offers the e-mail form at once.
 */
describeNeeding("chromium-headless-shell")("office hours in the widget, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let operatorClient: Pusher;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const init = await fetch(`${stage.serviceUrl}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: stage.site.origin, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: stage.tenant.agentId, page_url: stage.site.url("/") }),
    });
    const reverb = ((await init.json()) as { data: { reverb: ReverbDescriptor } }).data.reverb;
    const operator = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "agent", name: "Ana" });
    const authUrl = `${stage.serviceUrl}${CONSOLE}/broadcasting/auth`;
    operatorClient = new Pusher(reverb.app_key, pusherOptionsFor(reverb, { channelAuthorization: { endpoint: authUrl, transport: "ajax", customHandler: consoleChannelAuthorizer(authUrl, operator.headers) } }));
    const presence: Channel = operatorClient.subscribe(`presence-operators.${stage.tenant.workspaceId}`);
    await new Promise<void>((resolve) => presence.bind("pusher:subscription_succeeded", () => resolve()));
  });
  afterAll(async () => {
    operatorClient?.disconnect();
    await browser?.close();
    await stage?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  async function setHours(officeHours: OfficeHours, awayMessage: string | null, replyTime: "minutes" | "hours" | "day") {
    await updateAgent(stage.t.services.db, { agentId: stage.tenant.agentId, officeHours, awayMessage, replyTime });
    stage.t.services.sessionCache.forgetAgent(stage.tenant.agentId);
  }

  async function openWidget(path: string, options: { language?: string; dark?: boolean } = {}): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: VISITOR_ZONE, locale: "en-US", colorScheme: options.dark ? "dark" : "light" });
    page = await context.newPage();
    await page.goto(stage.hostPage(path, options.language ? { attributes: { language: options.language } } : {}));
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => page.getByRole("textbox").first().isEnabled()).toBe(true);
    return page;
  }
  const dialogText = async () => (await page.getByRole("dialog").textContent()) ?? "";
  const askForPerson = async () => {
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("menuitem", { name: "Talk to a person" }).click();
  };

  it("happy: inside office hours the header shows the usual reply time, and asking for a person waits for one (no e-mail form)", async () => {
    const allDay = [{ open: "00:00", close: "24:00" }];
    await setHours({ time_zone: "UTC", days: Object.fromEntries(WEEKDAYS.map((day) => [day, allDay])) }, "We are closed.", "hours");
    await openWidget("/inside-hours");
    await poll(() => page.locator("frontdesk-widget .subtitle").textContent()).toBe("Usually replies within a few hours");
    expect(await dialogText()).not.toContain("We're away");
    expect(await dialogText()).not.toContain("We are closed.");
    await page.screenshot({ path: join(ARTIFACTS, "office-hours-inside.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);
    await askForPerson();
    await poll(dialogText).toMatch(/Waiting for a person/);
    expect(await page.getByRole("textbox", { name: "Your e-mail" }).count()).toBe(0);
  });

  it("happy: outside office hours the away notice names the next opening in the visitor's time, and asking for a person offers the e-mail form at once", async () => {
    // Closed today (UTC); open tomorrow 09:00–17:00 UTC, which is early morning in New York.
    const now = new Date();
    const tomorrow = WEEKDAYS[(now.getUTCDay() + 1) % 7]!;
    await setHours({ time_zone: "UTC", days: { [tomorrow]: [{ open: "09:00", close: "17:00" }] } }, "Leave us a message: we read every one in the morning.", "minutes");
    const opening = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS + 9 * 3_600_000);
    const when = opening.toLocaleString("en-US", { timeZone: VISITOR_ZONE, weekday: "long", hour: "numeric", minute: "2-digit" });

    await openWidget("/outside-hours");
    await poll(dialogText).toContain(`We're away — back ${when}`);
    expect(await dialogText()).toContain("Leave us a message: we read every one in the morning.");
    expect(await page.locator("frontdesk-widget .subtitle").textContent()).not.toMatch(/Usually replies/);
    await page.screenshot({ path: join(ARTIFACTS, "office-hours-away.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);

    await askForPerson();
    await poll(() => page.getByRole("textbox", { name: "Your e-mail" }).isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "office-hours-away-email.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("textbox", { name: "Your e-mail" }).fill("night@example.org");
    await page.getByRole("button", { name: "Send e-mail" }).click();
    await poll(() => page.getByText("Thanks! We'll get back to you by e-mail.").isVisible()).toBe(true);
    const { rows } = await stage.t.services.db.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM inbox_notifications WHERE workspace_id = $1 AND kind = 'human_requested' ORDER BY created_at DESC LIMIT 1`,
      [stage.tenant.workspaceId],
    );
    expect(rows[0]?.payload).toMatchObject({ outside_hours: true });
  });

  it("happy: in Arabic (right to left, dark mode) and in French, the away notice and the reply time are in the widget's language; no serious axe violation", async () => {
    const now = new Date();
    const tomorrow = WEEKDAYS[(now.getUTCDay() + 1) % 7]!;
    await setHours({ time_zone: "UTC", days: { [tomorrow]: [{ open: "09:00", close: "17:00" }] } }, "نعود صباح الغد.", "day");
    await openWidget("/away-in-arabic", { language: "ar", dark: true });
    await poll(dialogText).toContain("نحن غير متاحين الآن — نعود");
    expect(await dialogText()).toContain("نعود صباح الغد.");
    expect(await page.locator("frontdesk-widget .panel").evaluate((panel) => getComputedStyle(panel).direction)).toBe("rtl");
    await page.screenshot({ path: join(ARTIFACTS, "office-hours-away-ar-dark.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    const allDay = [{ open: "00:00", close: "24:00" }];
    await setHours({ time_zone: "Europe/Paris", days: Object.fromEntries(WEEKDAYS.map((day) => [day, allDay])) }, null, "day");
    await openWidget("/inside-in-french", { language: "fr" });
    await poll(() => page.locator("frontdesk-widget .subtitle").textContent()).toBe("Répond généralement en une journée");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
