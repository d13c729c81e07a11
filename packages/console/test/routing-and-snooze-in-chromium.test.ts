import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { adminOf, bearer, startSession } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/**
 * Routing and snooze in the console (issue 33, part 6): an admin sets an agent's routing to round
 * robin within a team in the agent editor; then snoozes a visitor's conversation from its snooze
 * menu, finds it under "Snoozed", and brings it back.
 */
describeNeeding("chromium-headless-shell")("the console's routing setting and snooze menu, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stage?.close();
  });

  it("happy: round robin within a team is chosen in the agent editor, saved and shown again; no serious axe violation, light and dark", async () => {
    const bo = (await runAdminCommand(adminOf(stage.t.services), { command: "operator.create", workspaceId: stage.tenant.workspaceId, email: "bo@acme-bikes.test", name: "Bo", role: "agent" })) as { id: string };
    ({ context, page } = await signedInOperator(browser, stage, { email: "ana@acme-bikes.test", name: "Ana", role: "admin" }, `/console/agents/${stage.tenant.agentId}`));
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-routing-failure.png"), fullPage: true });
    });
    const section = page.getByRole("group", { name: "Routing" });
    await poll(() => section.isVisible()).toBe(true);
    expect(await section.getByLabel("Requests for a person").inputValue()).toBe("manual");
    await section.getByLabel("Requests for a person").selectOption("round_robin");
    const team = section.getByRole("group", { name: "Team" });
    await poll(() => team.getByRole("checkbox").count()).toBe(2);
    await team.getByRole("checkbox", { name: /Bo/ }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByText(/^Saved at/).isVisible()).toBe(true);
    const stored = await stage.t.services.db.query<{ routing: string; routing_team: string[] }>(`SELECT routing, routing_team FROM agents WHERE id = $1`, [stage.tenant.agentId]);
    expect(stored.rows[0]).toEqual({ routing: "round_robin", routing_team: [bo.id] });

    await page.reload();
    const reloaded = page.getByRole("group", { name: "Routing" });
    await poll(() => reloaded.getByLabel("Requests for a person").inputValue()).toBe("round_robin");
    await poll(() => reloaded.getByRole("checkbox", { name: /Bo/ }).isChecked()).toBe(true);
    expect(await reloaded.getByRole("checkbox", { name: /Ana/ }).isChecked()).toBe(false);
    await reloaded.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "console-routing.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-routing-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("happy: a conversation is snoozed from its menu (out of All open, under Snoozed, with its time), a custom time is offered, and it is brought back; no serious axe violation", async () => {
    // Bo, the team's only member, is offline: the request waits for anyone.
    const session = await startSession(stage.t.app, stage.tenant.agentId, { page_url: `${stage.site.origin}/` }, stage.site.origin);
    const requested = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(session.jwt), payload: { reason: "My order is late" } });
    expect(requested.json().data.status).toBe("awaiting_human");

    await page.goto(`${stage.serviceUrl}/console/inbox/${session.conversationId}?filter=open`);
    const list = page.getByRole("list", { name: "Conversations: All open" });
    await poll(() => list.getByRole("listitem").count()).toBe(1);
    const snooze = page.getByRole("button", { name: /^Snooze/ });
    await snooze.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("group", { name: "Snooze until" });
    await poll(() => menu.isVisible()).toBe(true);
    // The focus moves into the menu; Escape closes it and gives it back.
    await poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toBe("1 hour");
    await page.keyboard.press("Escape");
    await poll(() => menu.isVisible()).toBe(false);
    await poll(() => snooze.evaluate((element) => element === document.activeElement)).toBe(true);

    await snooze.click();
    await menu.getByRole("button", { name: "Custom time…" }).click();
    await poll(() => menu.getByLabel("Snooze until").isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "console-snooze-menu.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-snooze-menu-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    await menu.getByRole("button", { name: /^Tomorrow morning/ }).click();
    await poll(() => page.getByRole("button", { name: /^Snoozed until/ }).isVisible()).toBe(true);
    await poll(() => list.getByRole("listitem").count()).toBe(0);
    const stored = await stage.t.services.db.query<{ snoozed_until: Date }>(`SELECT snoozed_until FROM conversations WHERE id = $1`, [session.conversationId]);
    const until = new Date(stored.rows[0]!.snoozed_until);
    expect(until.getTime()).toBeGreaterThan(Date.now());
    // Tomorrow at 09:00 in the operator's own zone (the browser's).
    const browserHour = await page.evaluate((iso) => new Date(iso).getHours(), until.toISOString());
    expect(browserHour).toBe(9);

    await page.getByRole("navigation", { name: "Filters" }).getByRole("link", { name: "Snoozed", exact: true }).click();
    const snoozedList = page.getByRole("list", { name: "Conversations: Snoozed" });
    await poll(() => snoozedList.getByRole("listitem").count()).toBe(1);
    expect(await snoozedList.getByRole("listitem").textContent()).toContain("Snoozed until");
    await page.screenshot({ path: join(ARTIFACTS, "console-snoozed-view.png") });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: /^Snoozed until/ }).click();
    await page.getByRole("group", { name: "Snooze until" }).getByRole("button", { name: "Unsnooze now" }).click();
    await poll(() => snoozedList.getByRole("listitem").count()).toBe(0);
    await poll(() => page.getByRole("button", { name: "Snooze", exact: true }).count()).toBe(1);
    const back = await stage.t.services.db.query<{ snooze_id: string | null }>(`SELECT snooze_id FROM conversations WHERE id = $1`, [session.conversationId]);
    expect(back.rows[0]!.snooze_id).toBeNull();
  });

  it("happy: an operator goes away from the sidebar and back; the store and the operators list say so; no serious axe violation", async () => {
    const awayInStore = async () =>
      (await stage.t.services.db.query<{ away: boolean }>(`SELECT away_since IS NOT NULL AS away FROM operators WHERE email = 'ana@acme-bikes.test'`)).rows[0]?.away;
    await page.goto(`${stage.serviceUrl}/console/settings`);
    const away = page.getByRole("checkbox", { name: "Away" });
    await poll(() => away.isEnabled()).toBe(true);
    expect(await away.isChecked()).toBe(false);
    await away.check();
    await poll(awayInStore).toBe(true);
    // The operators list marks her, and the choice outlives a reload.
    await poll(async () => (await page.getByRole("rowheader", { name: /^Ana/ }).textContent()) ?? "").toContain("away");
    await page.reload();
    await poll(() => page.getByRole("checkbox", { name: "Away" }).isChecked()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "console-away.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("checkbox", { name: "Away" }).uncheck();
    await poll(awayInStore).toBe(false);
  });
});
