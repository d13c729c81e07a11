import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { totpCodeAt } from "../../server/src/console/two-factor/totp.js";
import { giveOperatorPassword } from "../../server/test/support/operator-password.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { OPERATOR_PASSWORD, poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { ssoPostLogoutRedirectUri, ssoRedirectUri } from "../../server/src/console/sso/sso-settings.js";
import { startOidcProvider, type LoopbackOpenIdProvider } from "../../server/test/support/openid-providers.js";

/**
 * Sign-in that resists guessing, in Chromium: the set-password screen shows why a guessable
 * password is refused; an operator sets up an authenticator in Settings (QR code, key as text,
 * recovery codes once) and is then asked for its code at sign-in; a workspace that requires
 * two-factor sign-in makes an operator without it set one up while signing in.
 */
describeNeeding("chromium-headless-shell")("sign-in security screens, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let provider: LoopbackOpenIdProvider;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_SSO_ALLOW_PRIVATE_NETWORKS: "true" }), launchChromium()]);
    provider = await startOidcProvider({ redirectUri: ssoRedirectUri(stage.serviceUrl), postLogoutRedirectUri: ssoPostLogoutRedirectUri(stage.serviceUrl) });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
    await provider?.close();
  });

  const codeNow = (secret: string) => totpCodeAt(secret, stage.t.services.now());
  /** The authenticator's next 30-second code (the current one may have been used: a code works once). */
  const nextStep = () => {
    stage.t.clock.offsetMs += 30_000;
  };

  async function signInPage(email: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${stage.serviceUrl}/console/inbox`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    return page;
  }

  it("happy: the set-password screen says why password12 is refused; no serious axe violation", async () => {
    const invited = (await runAdminCommand(adminOf(stage.t.services), {
      command: "operator.create", workspaceId: stage.tenant.workspaceId, email: "carla@acme-bikes.test", name: "Carla",
    })) as { set_password_url: string };
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(invited.set_password_url);
    await page.getByLabel("New password").fill("password12");
    await page.getByLabel("Repeat it").fill("password12");
    await page.getByRole("button", { name: "Set password" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^is too easy to guess: .+/);
    await page.screenshot({ path: join(ARTIFACTS, "console-password-too-weak.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("happy: set up an authenticator in Settings (QR code, key, recovery codes once), then sign-in asks for its code; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "dora@acme-bikes.test", name: "Dora", role: "admin" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-two-factor-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const section = page.getByRole("region", { name: "Two-factor sign-in" });
    await poll(() => section.getByRole("button", { name: "Set up an authenticator app" }).isVisible()).toBe(true);
    await section.getByRole("button", { name: "Set up an authenticator app" }).click();
    const qr = section.getByRole("img", { name: "QR code of the authenticator secret" });
    await poll(() => qr.isVisible()).toBe(true);
    expect(await qr.evaluate((image) => (image as HTMLImageElement).naturalWidth > 0)).toBe(true);
    const secret = ((await section.locator(".totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await section.screenshot({ path: join(ARTIFACTS, "console-two-factor-enrolment.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await section.getByLabel("Code from the app").fill(await codeNow(secret));
    await section.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    const codes = section.getByRole("region", { name: "Your recovery codes" });
    await poll(() => codes.getByRole("listitem").count()).toBe(10);
    await poll(() => section.textContent()).toContain("10 recovery codes left");
    await section.screenshot({ path: join(ARTIFACTS, "console-two-factor-recovery-codes.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    // Signing in now asks for the code after the password.
    const next = await signInPage("dora@acme-bikes.test");
    await poll(() => next.getByRole("heading", { name: "Two-factor sign-in" }).isVisible()).toBe(true);
    await next.getByLabel("Code").fill("000000" === (await codeNow(secret)) ? "111111" : "000000");
    await next.getByRole("button", { name: "Verify" }).click();
    await poll(() => next.getByRole("alert").textContent()).toMatch(/wrong, expired or already used/);
    await next.screenshot({ path: join(ARTIFACTS, "console-two-factor-code-step.png") });
    expect(await seriousViolations(next)).toEqual([]);
    nextStep();
    await next.getByLabel("Code").fill(await codeNow(secret));
    await next.getByRole("button", { name: "Verify" }).click();
    await poll(() => next.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
    await next.context().close();
  });

  it("happy: a workspace requiring two-factor sign-in makes an operator without it set one up while signing in; no serious axe violation", async () => {
    const { context, page } = await signedInOperator(browser, stage, { email: "emil@acme-bikes.test", name: "Emil", role: "admin" }, "/console/settings");
    const section = page.getByRole("region", { name: "Two-factor sign-in" });
    const requirement = section.getByRole("checkbox", { name: /Require two-factor sign-in/ });
    await poll(() => requirement.isVisible()).toBe(true);
    // The box follows the server's answer: click, then see it checked.
    await requirement.click();
    await poll(() => requirement.isChecked()).toBe(true);
    await poll(() => section.textContent()).toContain("Your workspace requires it.");
    await context.close();

    const operator = (await runAdminCommand(adminOf(stage.t.services), {
      command: "operator.create", workspaceId: stage.tenant.workspaceId, email: "femi@acme-bikes.test", name: "Femi", role: "agent",
    })) as { id: string };
    await giveOperatorPassword(stage.t.services, operator.id, OPERATOR_PASSWORD);
    const next = await signInPage("femi@acme-bikes.test");
    await poll(() => next.getByRole("heading", { name: "Set up two-factor sign-in" }).isVisible()).toBe(true);
    await poll(() => next.getByRole("img", { name: "QR code of the authenticator secret" }).isVisible()).toBe(true);
    await next.screenshot({ path: join(ARTIFACTS, "console-two-factor-required-enrolment.png") });
    expect(await seriousViolations(next)).toEqual([]);
    const secret = ((await next.locator(".totp-secret").textContent()) ?? "").replace(/\s/g, "");
    await next.getByLabel("Code from the app").fill(await codeNow(secret));
    await next.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await poll(() => next.getByRole("region", { name: "Your recovery codes" }).getByRole("listitem").count()).toBe(10);
    await next.screenshot({ path: join(ARTIFACTS, "console-two-factor-required-codes.png") });
    expect(await seriousViolations(next)).toEqual([]);
    await next.getByRole("button", { name: "I have kept them: continue" }).click();
    await poll(() => next.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
    await next.context().close();
    // Later operators of the workspace are asked too; put it back for the stage's other tests.
    await stage.t.services.db.query(`UPDATE workspaces SET require_two_factor = false WHERE id = $1`, [stage.tenant.workspaceId]);
  });

  it("happy: an admin sets up single sign-on in Settings; the sign-in page offers \"Sign in with Acme ID\", which signs a new operator in through the provider and signs them out of it; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "gia@acme-bikes.test", name: "Gia", role: "admin" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-sso-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    const form = page.getByRole("form", { name: "Single sign-on provider" });
    await poll(() => form.isVisible()).toBe(true);
    await form.getByLabel("Button name").fill("Acme ID");
    await form.getByLabel("Issuer URL").fill(provider.issuer);
    await form.getByLabel("Client ID").fill(provider.clientId);
    await form.getByLabel("Client secret").fill(provider.clientSecret);
    await form.getByLabel("Allowed e-mail domains").fill("sso.acme-bikes.test");
    await form.getByRole("button", { name: "Save single sign-on" }).click();
    await poll(() => form.getByRole("status").textContent()).toContain("can sign in with Acme ID");
    await poll(() => page.getByLabel("Redirect URI to register at the provider").inputValue()).toBe(`${stage.serviceUrl}/api/v1/console/sso/callback`);
    await page.getByRole("region", { name: "Single sign-on" }).screenshot({ path: join(ARTIFACTS, "console-sso-settings.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const next = await visitor.newPage();
    await next.goto(`${stage.serviceUrl}/console/inbox`);
    await next.getByLabel("E-mail").fill("hana@sso.acme-bikes.test");
    await next.getByLabel("Password").focus();
    const button = next.getByRole("button", { name: "Sign in with Acme ID" });
    await poll(() => button.isVisible()).toBe(true);
    await next.screenshot({ path: join(ARTIFACTS, "console-sso-sign-in-button.png") });
    expect(await seriousViolations(next)).toEqual([]);
    await button.click();
    await poll(() => next.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
    expect(next.url()).toBe(`${stage.serviceUrl}/console/inbox`);
    // Signing out ends the console session and goes on to the provider's sign-out page.
    await next.getByRole("button", { name: "Sign out" }).click();
    await poll(() => next.url()).toContain(`${provider.issuer}/session/end`);
    const me = await fetch(`${stage.serviceUrl}/api/v1/console/me`, { headers: { cookie: (await visitor.cookies(stage.serviceUrl)).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") } });
    expect(me.status).toBe(401);
    await visitor.close();
    await stage.t.services.db.query(`DELETE FROM workspace_sso WHERE workspace_id = $1`, [stage.tenant.workspaceId]);
  });
});
