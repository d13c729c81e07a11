import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { runAdminCommand } from "../../../server/src/admin/run-admin-command.js";
import { adminOf } from "../../../server/test/support/seed.js";
import type { WidgetStage } from "../../../widget/test/support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
export const poll = <T>(read: () => Promise<T> | T, timeout = 20_000) => expect.poll(read, { timeout, interval: 25 });

export const OPERATOR_PASSWORD = "handlebar-tandem-42";

/** axe-core on the whole page: the ids of serious and critical violations (evaluated by the driver, which the page's CSP does not govern). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const source = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown }[] }[] }> } }).axe;
    const results = await axe.run(document, { resultTypes: ["violations"] });
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  });
}

/**
 * An operator of the stage's workspace (created with `admin operator create`, its password set),
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
  await runAdminCommand(admin, { command: "operator.set-password", operatorId: created.id, password: OPERATOR_PASSWORD });
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
