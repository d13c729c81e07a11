import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import type { BusEvent } from "../../server/src/realtime/event-bus.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { OPERATOR_PASSWORD, poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

const QUOTA = 50;
const VISITORS = 3;

/**
 * The Settings screen in Chromium: an admin creates an API token (its plaintext shown once, then
 * only its prefix), which the Sources API accepts until it is revoked; invites an operator (the
 * set-password link works), changes a role, signs a colleague out everywhere and removes one; the
 * quota and this month's usage are the counted ones. An agent-role operator sees the server's 403.
 */
describeNeeding("chromium-headless-shell")("the console's Settings screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    await stage.t.services.db.query(`UPDATE workspaces SET conversation_quota = $1 WHERE id = $2`, [QUOTA, stage.tenant.workspaceId]);
    for (let visitor = 0; visitor < VISITORS; visitor += 1) await startVisitor();
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  async function startVisitor() {
    const response = await stage.t.app.inject({
      method: "POST",
      url: "/api/v1/widget/init",
      headers: { origin: stage.site.origin },
      payload: { agent_id: stage.tenant.agentId, page_url: stage.site.url("/") },
    });
    expect(response.statusCode, response.body).toBe(200);
  }
  const sources = (token: string) => fetch(`${stage.serviceUrl}/api/v1/workspace/sources`, { headers: { authorization: `Bearer ${token}` } });
  const tokenRow = (page: Page, name: string) => page.getByRole("table", { name: "API tokens" }).getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
  const operatorRow = (page: Page, name: string) => page.getByRole("table", { name: "Operators" }).getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name}`) }) });

  it("happy: create a token (shown once with a copy button, then only its prefix; the Sources API accepts it), revoke it with confirmation (the Sources API refuses it 401); invite an operator whose link sets a password, change a role, sign out everywhere, remove; quota and usage; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "ada@acme-bikes.test", name: "Ada", role: "admin" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-settings-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stage.serviceUrl });
    await poll(() => page.getByRole("heading", { name: "Settings", level: 1 }).isVisible()).toBe(true);
    // The stage pushed its knowledge with a token of its own.
    await poll(() => tokenRow(page, "knowledge").count()).toBe(1);

    // Quota and usage: the three conversations started this month, of 50.
    const usage = page.getByRole("region", { name: "Quota and usage" });
    await poll(() => usage.locator(".usage-figures dd").allTextContents()).toEqual([String(VISITORS), String(QUOTA), String(QUOTA - VISITORS)]);
    expect(await usage.locator(".usage-figures dt").allTextContents()).toEqual(["Conversations this month", "Monthly quota", "Remaining"]);
    const month = new Date().toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });
    expect(await usage.getByRole("table", { name: "The last six months" }).getByRole("row", { name: month }).getByRole("cell").textContent()).toBe(String(VISITORS));
    expect(await usage.getByRole("meter", { name: `${VISITORS} of ${QUOTA} used` }).evaluate((meter) => [(meter as HTMLMeterElement).value, (meter as HTMLMeterElement).max])).toEqual([VISITORS, QUOTA]);

    // Create a read-only token.
    const createForm = page.getByRole("form", { name: "Create a token" });
    await createForm.getByLabel("Name").fill("WordPress sync");
    await createForm.getByRole("checkbox", { name: /sources:write/ }).uncheck();
    await createForm.getByRole("checkbox", { name: /^Read sources/ }).check();
    await createForm.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByRole("region", { name: "New token" });
    await poll(() => shown.isVisible()).toBe(true);
    const plaintext = await shown.getByLabel("Token").inputValue();
    expect(plaintext).toMatch(/^fdk_[A-Za-z0-9_-]{48}$/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await poll(() => shown.getByRole("status").textContent()).toBe("Copied to the clipboard.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(plaintext);
    await poll(() => tokenRow(page, "WordPress sync").getByRole("cell").first().textContent()).toBe(`${plaintext.slice(0, 8)}…`);
    expect(await tokenRow(page, "WordPress sync").textContent()).toContain("sources:read");
    await screenshotWhole(page, ".settings", "console-settings-token-once.png");
    expect(await seriousViolations(page)).toEqual([]);

    // The Sources API takes it.
    const accepted = await sources(plaintext);
    expect(accepted.status, await accepted.clone().text()).toBe(200);

    // After a reload the plaintext is nowhere: the prefix only, and its last use.
    await page.reload();
    await poll(() => tokenRow(page, "WordPress sync").count()).toBe(1);
    expect(await page.getByRole("region", { name: "New token" }).count()).toBe(0);
    expect(await page.content()).not.toContain(plaintext);
    expect(await page.content()).toContain(`${plaintext.slice(0, 8)}…`);
    expect(await tokenRow(page, "WordPress sync").getByRole("cell").nth(3).textContent()).not.toBe("Never");

    // Revoke: a confirmation first (cancel keeps it), then the Sources API refuses it.
    await tokenRow(page, "WordPress sync").getByRole("button", { name: "Revoke WordPress sync" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke WordPress sync?" });
    await poll(() => confirm.isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "console-settings-revoke.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await poll(() => confirm.count()).toBe(0);
    expect((await sources(plaintext)).status).toBe(200);
    await tokenRow(page, "WordPress sync").getByRole("button", { name: "Revoke WordPress sync" }).click();
    await confirm.getByRole("button", { name: "Revoke token" }).click();
    await poll(() => tokenRow(page, "WordPress sync").textContent()).toContain("Revoked");
    const refused = await sources(plaintext);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe("invalid_token");

    // Invite an operator: the set-password link is shown with a copy button, and it works.
    const invite = page.getByRole("form", { name: "Invite an operator" });
    await invite.getByLabel("Name").fill("Bruno");
    await invite.getByLabel("E-mail").fill("bruno@acme-bikes.test");
    await invite.getByLabel("Role").selectOption("agent");
    await invite.getByRole("button", { name: "Invite" }).click();
    const handed = page.getByRole("region", { name: "Set-password link" });
    await poll(() => handed.isVisible()).toBe(true);
    const link = await handed.getByLabel("Set-password link").inputValue();
    expect(link).toMatch(new RegExp(`^${stage.serviceUrl}/console/set-password#token=`));
    await poll(() => operatorRow(page, "Bruno").textContent()).toContain("Invited");
    await screenshotWhole(page, ".settings", "console-settings-invite.png");
    expect(await seriousViolations(page)).toEqual([]);
    // An e-mail already used: the server's words.
    await invite.getByLabel("Name").fill("Bruno again");
    await invite.getByLabel("E-mail").fill("bruno@acme-bikes.test");
    await invite.getByRole("button", { name: "Invite" }).click();
    await poll(() => invite.getByRole("alert").textContent()).toMatch(/email/);

    const bruno = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const brunoPage = await bruno.newPage();
    await brunoPage.goto(link);
    await brunoPage.getByLabel("New password").fill(OPERATOR_PASSWORD);
    await brunoPage.getByLabel("Repeat it").fill(OPERATOR_PASSWORD);
    await brunoPage.getByRole("button", { name: "Set password" }).click();
    await poll(() => brunoPage.getByRole("heading", { name: "Password set" }).isVisible()).toBe(true);
    await brunoPage.goto(`${stage.serviceUrl}/console/inbox`);
    await brunoPage.getByLabel("E-mail").fill("bruno@acme-bikes.test");
    await brunoPage.getByLabel("Password").fill(OPERATOR_PASSWORD);
    await brunoPage.getByRole("button", { name: "Sign in" }).click();
    await poll(() => brunoPage.getByRole("heading", { name: "Inbox" }).isVisible()).toBe(true);

    // His password is set: Ada's open page shows it without a reload (operator.updated). Make him an admin; the row says so after a reload too.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await poll(() => operatorRow(page, "Bruno").textContent()).not.toContain("Invited");
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    await operatorRow(page, "Bruno").getByLabel("Role of Bruno").selectOption("admin");
    await poll(() => page.getByText("Bruno is now an admin.").isVisible()).toBe(true);
    await page.reload();
    await poll(() => operatorRow(page, "Bruno").getByLabel("Role of Bruno").inputValue()).toBe("admin");

    // Sign him out everywhere: his console goes back to the sign-in at its next request.
    await operatorRow(page, "Bruno").getByRole("button", { name: "Sign out everywhere, Bruno" }).click();
    await page.getByRole("dialog", { name: "Sign Bruno out everywhere?" }).getByRole("button", { name: "Sign out everywhere" }).click();
    await poll(() => page.getByText("Bruno was signed out of 1 session.").isVisible()).toBe(true);
    await brunoPage.reload();
    await poll(() => brunoPage.getByRole("heading", { name: "Sign in to the console" }).isVisible()).toBe(true);
    await bruno.close();

    // Remove him.
    await operatorRow(page, "Bruno").getByRole("button", { name: "Remove Bruno" }).click();
    await page.getByRole("dialog", { name: "Remove Bruno?" }).getByRole("button", { name: "Remove operator" }).click();
    await poll(() => operatorRow(page, "Bruno").count()).toBe(0);
    expect(await page.getByText("Bruno was removed.").isVisible()).toBe(true);

    // Live, without a reload: a token the CLI issues through the serving process (token.created), and a new visitor's conversation in the usage (conversation.started).
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const cli = { ...adminOf(stage.t.services), publish: (event: BusEvent) => stage.t.services.bus.publish(event) };
    await runAdminCommand(cli, { command: "token.create", workspaceId: stage.tenant.workspaceId, name: "Deploy script", abilities: ["sources:read"] });
    await poll(() => tokenRow(page, "Deploy script").count()).toBe(1);
    await startVisitor();
    await poll(() => usage.locator(".usage-figures dd").first().textContent()).toBe(String(VISITORS + 1));
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);

    // The last admin cannot demote themselves: the server's words.
    await operatorRow(page, "Ada").getByLabel("Role of Ada").selectOption("agent");
    await poll(() => page.getByRole("region", { name: "Operators" }).getByRole("alert").textContent()).toMatch(/last admin/i);
    await poll(() => operatorRow(page, "Ada").getByLabel("Role of Ada").inputValue()).toBe("admin");

    // Tablet width and dark mode.
    await page.setViewportSize({ width: 820, height: 1180 });
    await screenshotWhole(page, ".settings", "console-settings-tablet.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshotWhole(page, ".settings", "console-settings-dark.png");
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it("security: an agent-role operator opening Settings gets the server's 403 for the API tokens (no token listed, no form), sees the operators without admin actions, and the usage", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "cleo@acme-bikes.test", name: "Cleo", role: "agent" }, "/console/settings");
    try {
      const tokens = page.getByRole("region", { name: "API tokens" });
      await poll(() => tokens.getByRole("alert").textContent()).toBe("API tokens: Only an admin of the workspace may do this.");
      expect(await tokens.getByRole("table").count()).toBe(0);
      expect(await page.getByRole("button", { name: "Create token" }).count()).toBe(0);
      await poll(() => operatorRow(page, "Cleo").count()).toBe(1);
      expect(await page.getByRole("form", { name: "Invite an operator" }).count()).toBe(0);
      expect(await operatorRow(page, "Ada").getByRole("button").count()).toBe(0);
      expect(await operatorRow(page, "Cleo").getByRole("button", { name: "Sign out everywhere, Cleo" }).count()).toBe(1);
      await poll(() => page.getByRole("region", { name: "Quota and usage" }).locator(".usage-figures").isVisible()).toBe(true);
      await screenshotWhole(page, ".settings", "console-settings-agent.png");
      expect(await seriousViolations(page)).toEqual([]);
      // The server, not the page, refuses: the same request from this session is 403.
      const status = await page.evaluate(async () => (await fetch("/api/v1/console/tokens", { credentials: "same-origin" })).status);
      expect(status).toBe(403);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
