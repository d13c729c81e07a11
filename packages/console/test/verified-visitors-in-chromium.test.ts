import { createHmac } from "node:crypto";
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

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */

const PASSWORD = "handlebar-tandem-42";

/**
 * Verified visitors in the console (issue 34): an admin creates the agent's identity secret (shown
 * once, with a Copy button), turns verification on, and the inbox then names a signed-in user with
 * a Verified badge, while a name typed into a lead form is shown as the lead's, never as verified.
 */
describeNeeding("chromium-headless-shell")("verified visitors in the console, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const admin = adminOf(stage.t.services);
    const created = (await runAdminCommand(admin, { command: "operator.create", workspaceId: stage.tenant.workspaceId, email: "ada@acme-bikes.test", name: "Ada", role: "admin" })) as { id: string };
    await runAdminCommand(admin, { command: "operator.set-password", operatorId: created.id, password: PASSWORD });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stage?.close();
  });

  const widget = async (path: string, body: Record<string, unknown>, jwt?: string) => {
    const response = await fetch(`${stage.serviceUrl}/api/v1/widget${path}`, {
      method: "POST",
      headers: { origin: stage.site.origin, "content-type": "application/json", ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as { data: { jwt: string; conversation_id: string } };
  };

  it("happy: the secret is created and shown once with a Copy button, verification is turned on, and a verified user carries the Verified badge in the inbox while a lead's typed name does not", async () => {
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "verified-visitors-failure.png") });
    });
    await page.goto(`${stage.serviceUrl}/console/agents/${stage.tenant.agentId}`);
    await page.getByLabel("E-mail").fill("ada@acme-bikes.test");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await poll(() => page.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
    const editor = page.getByRole("group", { name: "Verified visitors" });
    await poll(() => editor.isVisible()).toBe(true);
    await editor.scrollIntoViewIfNeeded();
    await poll(() => editor.getByText("No identity secret yet").isVisible()).toBe(true);
    await editor.getByRole("button", { name: "Create identity secret" }).click();
    const shown = page.getByRole("region", { name: "New identity secret" });
    await poll(() => shown.isVisible()).toBe(true);
    const secret = await shown.getByLabel("Identity secret").inputValue();
    expect(secret).toMatch(/^fid_/);
    await page.screenshot({ path: join(ARTIFACTS, "console-identity-secret.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await shown.getByRole("button", { name: "Done" }).click();
    // Never shown again: only when it was created.
    await poll(() => editor.getByText(/^Identity secret created/).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(secret.slice(4));

    await editor.getByLabel("Identity verification").selectOption("optional");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByText(/^Saved at/).isVisible()).toBe(true);

    // A signed-in user of the site, and an anonymous visitor who typed a name into the lead form.
    const userId = "customer-5150";
    const hash = createHmac("sha256", secret).update(userId).digest("hex");
    const verified = (await widget("/init", { agent_id: stage.tenant.agentId, page_url: stage.site.url("/account"), user_id: userId, user_hash: hash, email: "mia@example.com", name: "Mia Park" })).data;
    await widget("/request-human", { reason: "My order is late" }, verified.jwt);
    const anonymous = (await widget("/init", { agent_id: stage.tenant.agentId, page_url: stage.site.url("/contact") })).data;
    await widget("/leads", { email: "someone@example.com", name: "Claimed Name" }, anonymous.jwt);
    await widget("/request-human", { reason: "Question" }, anonymous.jwt);

    await page.goto(`${stage.serviceUrl}/console/inbox/${verified.conversation_id}`);
    const row = page.locator(".conversation-row", { hasText: "Mia Park" });
    await poll(() => row.count()).toBe(1);
    await poll(() => row.getByText("Verified", { exact: true }).isVisible()).toBe(true);
    const details = page.getByRole("complementary", { name: "About the visitor" });
    const identity = details.getByRole("region", { name: "Verified user" });
    await poll(() => identity.isVisible()).toBe(true);
    expect(await identity.textContent()).toContain("mia@example.com");
    expect(await identity.textContent()).toContain(userId);
    await poll(() => page.getByRole("heading", { level: 2, name: "Mia Park" }).isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "console-verified-visitor.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // The typed name is the lead's: no badge, not the conversation's title.
    await page.goto(`${stage.serviceUrl}/console/inbox/${anonymous.conversation_id}`);
    await poll(() => details.getByText(/Claimed Name/).isVisible()).toBe(true);
    expect(await details.getByRole("region", { name: "Verified user" }).count()).toBe(0);
    expect(await page.locator(".conversation-header .badge-verified").count()).toBe(0);
    expect(await page.getByRole("heading", { level: 2 }).first().textContent()).toMatch(/^Visitor /);
    await page.screenshot({ path: join(ARTIFACTS, "console-unverified-lead.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // Dark mode, the same screen with the badge.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${stage.serviceUrl}/console/inbox/${verified.conversation_id}`);
    await poll(() => identity.isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "console-verified-visitor-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
