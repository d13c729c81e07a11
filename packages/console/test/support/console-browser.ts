import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { runAdminCommand } from "../../../server/src/admin/run-admin-command.js";
import { giveOperatorPassword } from "../../../server/test/support/operator-password.js";
import { adminOf } from "../../../server/test/support/seed.js";
import type { WidgetStage } from "../../../widget/test/support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
export const poll = <T>(read: () => Promise<T> | T, timeout = 20_000) => expect.poll(read, { timeout, interval: 50 });

export { seriousViolations } from "./axe.js";

export const OPERATOR_PASSWORD = "handlebar-tandem-42";


/**
 * An operator of the stage's workspace (created with `admin operator create`, its password set at
 * the fixtures' scrypt cost, see operator-password.ts),
 * signed in to the console in a new browser context at `path`; the page's errors are collected.
 */
export async function signedInOperator(
  browser: Browser,
  stage: WidgetStage,
  operator: { email: string; name: string; role: "admin" | "agent" },
  path = "/console",
): Promise<{ context: BrowserContext; page: Page; pageErrors: string[] }> {
  const admin = adminOf(stage.t.services);
  const created = (await runAdminCommand(admin, { command: "operator.create", workspaceId: stage.tenant.workspaceId, ...operator })) as { id: string };
  await giveOperatorPassword(stage.t.services, created.id, OPERATOR_PASSWORD);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  await page.goto(`${stage.serviceUrl}${path}`);
  await page.getByLabel("E-mail").fill(operator.email);
  await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await poll(() => page.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
  return { context, page, pageErrors };
}
