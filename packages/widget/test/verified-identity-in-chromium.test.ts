import { createHmac } from "node:crypto";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { identitySecretBoxOf } from "../../server/src/tenants/identity-secret-box.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { seriousViolations } from "./support/widget-axe.js";
import { ARTIFACTS, modelAnswer, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 50 });

/**
 * A signed-in user of the site (issue 34) in real browsers: the site's back end signs the user's
 * id with the agent's identity secret, the page hands it to the widget (the script tag's data-user-*
 * on one device, Frontdesk.identify on the other), and the conversation follows the user from one
 * browser to another; a browser without the identity, or with a forged one, gets none of it.
 */
describeNeeding("chromium-headless-shell")("a verified user's conversation across browsers, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let secret: string;
  const userId = "customer-7781";
  const hashOf = (key: string, id: string) => createHmac("sha256", key).update(id, "utf8").digest("hex");

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const admin = { ...adminOf(stage.t.services), identitySecrets: () => identitySecretBoxOf(stage.t.services.config) };
    secret = ((await runAdminCommand(admin, { command: "agent.identity-secret", agentId: stage.tenant.agentId })) as { secret: string }).secret;
    await runAdminCommand(admin, { command: "agent.update", agentId: stage.tenant.agentId, identityMode: "optional" });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stage?.close();
  });

  /** A fresh browser (its own storage: another device) on a page of the site. */
  const openBrowser = async (url: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(url);
    return page;
  };
  const launcher = (page: Page) => page.locator("frontdesk-widget .launcher");
  const log = (page: Page) => page.getByRole("log", { name: "Conversation" });

  it("happy: the conversation started on one browser opens, with its messages, on another browser of the same user", async () => {
    const hash = hashOf(secret, userId);
    const laptop = await openBrowser(
      stage.hostPage("/account", { attributes: { "user-id": userId, "user-hash": hash, "user-email": "mia@example.com", "user-name": "Mia Park" } }),
    );
    await launcher(laptop).click();
    await poll(() => laptop.getByRole("dialog").isVisible()).toBe(true);
    stage.model.respondWith(modelAnswer(["Express delivery arrives the next working day [1]."]));
    await laptop.getByRole("textbox", { name: "Message" }).fill("How fast is express delivery?");
    await laptop.keyboard.press("Enter");
    await poll(() => laptop.locator("frontdesk-widget .msg.from-agent .bubble").last().textContent()).toBe("Express delivery arrives the next working day.");

    // The other device signs in without a reload: Frontdesk.identify, queued before widget.js runs.
    const identify = JSON.stringify({ user_id: userId, user_hash: hash, name: "Mia Park" });
    const phone = await openBrowser(stage.hostPage("/orders", { before: `window.Frontdesk = { q: [["identify", ${identify}]] };` }));
    await launcher(phone).click();
    await poll(() => phone.getByRole("dialog").isVisible()).toBe(true);
    await poll(async () => (await log(phone).textContent()) ?? "").toContain("How fast is express delivery?");
    await poll(async () => (await log(phone).textContent()) ?? "").toContain("Express delivery arrives the next working day.");
    await phone.screenshot({ path: join(ARTIFACTS, "verified-identity-second-browser.png") });
    expect(await seriousViolations(phone)).toEqual([]);

    // Both browsers are the one visitor the site vouched for, each keeping its own anonymous id.
    const { rows } = await stage.t.services.db.query<{ user_email: string | null; user_name: string | null; conversations: number }>(
      `SELECT v.user_email, v.user_name, (SELECT count(*)::int FROM conversations c WHERE c.visitor_id = v.id) AS conversations FROM visitors v WHERE v.user_id = $1`,
      [userId],
    );
    expect(rows).toEqual([{ user_email: "mia@example.com", user_name: "Mia Park", conversations: 1 }]);
    const anonIds = await Promise.all([laptop, phone].map((page) => page.evaluate((key) => localStorage.getItem(key), `frontdesk:${stage.tenant.agentId}:anon`)));
    expect(anonIds[0]).not.toBe(anonIds[1]);
  });

  it("security: a browser without the identity, or with a forged hash, sees none of the user's conversation", async () => {
    const anonymous = await openBrowser(stage.hostPage("/account"));
    await launcher(anonymous).click();
    await poll(() => anonymous.getByRole("dialog").isVisible()).toBe(true);
    await poll(() => anonymous.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    expect((await log(anonymous).textContent()) ?? "").not.toContain("How fast is express delivery?");

    // Another user's hash presented with this user's id: init refuses it, and the page hears why.
    const forged = await openBrowser(
      stage.hostPage("/account", {
        attributes: { "user-id": userId, "user-hash": hashOf(secret, "customer-attacker") },
        before: `window.__frontdeskErrors = []; window.Frontdesk = { q: [] };`,
      }),
    );
    const consoleErrors: string[] = [];
    forged.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await forged.evaluate(() => (window as unknown as { Frontdesk: { on(event: string, handler: (detail: { code: string }) => void): void } }).Frontdesk.on("error", (detail) => (window as unknown as { __frontdeskErrors: string[] }).__frontdeskErrors.push(detail.code)));
    await launcher(forged).click();
    await poll(() => forged.evaluate(() => (window as unknown as { __frontdeskErrors: string[] }).__frontdeskErrors)).toContain("identity_invalid");
    expect((await log(forged).textContent().catch(() => "")) ?? "").not.toContain("How fast is express delivery?");
    // The site's developer is told what to fix, in the server's words; the visitor is asked to sign in, not
    // told their connection failed.
    await poll(() => consoleErrors.join("\n")).toContain("Frontdesk: The visitor's identity does not verify");
    await poll(async () => (await forged.locator("frontdesk-widget").getByRole("alert").allTextContents()).join(" ")).toContain("Sign in to your account to chat with us.");
    expect((await forged.locator("frontdesk-widget").textContent()) ?? "").not.toContain("couldn't reach");
    await forged.screenshot({ path: join(ARTIFACTS, "verified-identity-forged.png") });
    expect(await seriousViolations(forged)).toEqual([]);
  });
});
