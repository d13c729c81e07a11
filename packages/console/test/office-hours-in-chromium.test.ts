import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { seriousViolations } from "./support/axe.js";
import { poll } from "./support/console-browser.js";

const PASSWORD = "handlebar-tandem-42";

/**
 * The Office hours section of the Agents screen (issue 30, item 4): an admin turns office hours on,
 * picks a time zone, edits a day's intervals (an overlap the server refuses is explained beside
 * its field), sets the away message and the reply time, saves, and a reload shows them.
 */
describeNeeding("chromium-headless-shell")("the console's office hours, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stage?.close();
  });

  async function signIn(email: string): Promise<Page> {
    const admin = adminOf(stage.t.services);
    const created = (await runAdminCommand(admin, { command: "operator.create", workspaceId: stage.tenant.workspaceId, email, name: "Ada", role: "admin" })) as { id: string };
    await runAdminCommand(admin, { command: "operator.set-password", operatorId: created.id, password: PASSWORD });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Paris" });
    const page = await context.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "office-hours-failure.png"), fullPage: true });
    });
    await page.goto(`${stage.serviceUrl}/console/agents/${stage.tenant.agentId}`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await poll(() => page.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
    return page;
  }

  it("happy: office hours are edited with the keyboard-reachable form, an overlap is explained beside its field, saved, and shown again after a reload; no serious axe violation", async () => {
    const page = await signIn("hours@acme-bikes.test");
    const section = page.getByRole("group", { name: "Office hours" });
    await poll(() => section.isVisible()).toBe(true);
    expect(await section.getByLabel("When a person can answer").inputValue()).toBe("always");

    await section.getByLabel("When a person can answer").selectOption("hours");
    // The browser's zone is offered first; another is chosen from the list.
    expect(await section.getByLabel("Time zone").inputValue()).toBe("Europe/Paris");
    await section.getByLabel("Time zone").selectOption("America/New_York");
    const friday = section.getByRole("group", { name: "Friday" });
    expect(await friday.getByLabel("Opens").inputValue()).toBe("09:00");
    await friday.getByLabel("Closes").fill("12:00");
    await friday.getByRole("button", { name: "Add hours on Friday" }).click();
    await friday.getByLabel("Opens").nth(1).fill("11:30");
    await friday.getByLabel("Closes").nth(1).fill("17:30");
    await section.getByRole("group", { name: "Saturday" }).getByRole("button", { name: "Add hours on Saturday" }).click();
    await section.getByLabel("Away message").fill("We're back on Monday morning.");
    await section.getByLabel("Reply time").selectOption("hours");

    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.locator("#hours-fri-1-open-error").textContent()).toBe("overlaps the interval 09:00–12:00");
    expect(await friday.getByLabel("Opens").nth(1).getAttribute("aria-invalid")).toBe("true");
    await friday.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "console-office-hours-error.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // Fixed with the keyboard alone: focus the field, type, Tab on, Enter on Save.
    await friday.getByLabel("Opens").nth(1).focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("13:00");
    await page.getByRole("button", { name: "Save changes" }).focus();
    await page.keyboard.press("Enter");
    await poll(() => page.getByText(/^Saved at/).isVisible()).toBe(true);
    const stored = await stage.t.services.db.query<{ office_hours: unknown; away_message: string; reply_time: string }>(`SELECT office_hours, away_message, reply_time FROM agents WHERE id = $1`, [stage.tenant.agentId]);
    const weekday = [{ open: "09:00", close: "17:00" }];
    expect(stored.rows[0]).toEqual({
      office_hours: {
        time_zone: "America/New_York",
        days: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: [{ open: "09:00", close: "12:00" }, { open: "13:00", close: "17:30" }], sat: weekday },
      },
      away_message: "We're back on Monday morning.",
      reply_time: "hours",
    });

    await page.reload();
    const reloaded = page.getByRole("group", { name: "Office hours" });
    await poll(() => reloaded.getByLabel("When a person can answer").inputValue()).toBe("hours");
    expect(await reloaded.getByLabel("Time zone").inputValue()).toBe("America/New_York");
    expect(await reloaded.getByRole("group", { name: "Friday" }).getByLabel("Closes").nth(1).inputValue()).toBe("17:30");
    expect(await reloaded.getByRole("group", { name: "Sunday" }).textContent()).toContain("Closed");
    expect(await reloaded.getByLabel("Away message").inputValue()).toBe("We're back on Monday morning.");
    expect(await reloaded.getByLabel("Reply time").inputValue()).toBe("hours");
    await reloaded.getByRole("group", { name: "Thursday" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "console-office-hours.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-office-hours-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
