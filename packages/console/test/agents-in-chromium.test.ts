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
 * The Agents screen on the real service: an admin changes the primary colour and a starter prompt
 * and sees them in the real widget of the preview; the server's field errors show beside the
 * fields; an `agent`-role operator who tries the same gets the server's refusal.
 */
describeNeeding("chromium-headless-shell")("the console's Agents screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stage?.close();
  });

  async function signIn(email: string, role: "admin" | "agent", path: string): Promise<{ page: Page; pageErrors: string[] }> {
    const admin = adminOf(stage.t.services);
    const created = (await runAdminCommand(admin, { command: "operator.create", workspaceId: stage.tenant.workspaceId, email, name: email.split("@")[0]!, role })) as { id: string };
    await runAdminCommand(admin, { command: "operator.set-password", operatorId: created.id, password: PASSWORD });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, `agents-failure-${role}.png`) });
      console.error(`${role} page errors:`, pageErrors, "at", page.url());
    });
    await page.goto(`${stage.serviceUrl}${path}`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await poll(() => page.getByRole("status").filter({ hasText: "Live" }).count()).toBe(1);
    return { page, pageErrors };
  }

  it("happy: an admin changes the primary colour and a starter prompt; the preview's widget shows both; a colour the server refuses is explained beside the field; a behavior rule made with the form (its refused link explained beside it) is stored; no serious axe violation", async () => {
    const { page, pageErrors } = await signIn("ada@acme-bikes.test", "admin", "/console/agents");
    const list = page.getByRole("navigation", { name: "Agents" });
    const agentLink = list.getByRole("list").getByRole("link");
    await poll(() => agentLink.count()).toBe(1);
    await agentLink.click();
    await poll(() => new URL(page.url()).pathname).toBe(`/console/agents/${stage.tenant.agentId}`);
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await poll(() => preview.locator("frontdesk-widget .head").isVisible(), 30_000).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "console-agents.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // A colour the server refuses: its words beside the field, nothing saved.
    const colour = page.getByLabel("Primary colour", { exact: true });
    await colour.fill("orange");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.locator("#agent-colour-error").textContent()).toMatch(/hex colour/);
    expect(await colour.getAttribute("aria-invalid")).toBe("true");
    await page.screenshot({ path: join(ARTIFACTS, "console-agents-field-error.png") });
    expect(await seriousViolations(page)).toEqual([]);

    await colour.fill("#c2410c");
    // The seeded agent's first starter prompt is replaced.
    await poll(() => preview.locator("frontdesk-widget .starter", { hasText: "Where is my order?" }).count()).toBe(1);
    await page.getByLabel("Starter prompt 1", { exact: true }).fill("Do you rent tandems?");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByText(/^Saved at/).isVisible()).toBe(true);
    expect(await page.locator("#agent-colour-error").count()).toBe(0);

    // The preview reloads with the saved settings: the panel's header in the new colour, the new starter prompt.
    await poll(() => preview.locator("frontdesk-widget .starter", { hasText: "Do you rent tandems?" }).count(), 30_000).toBe(1);
    expect(await preview.locator("frontdesk-widget .starter", { hasText: "Where is my order?" }).count()).toBe(0);
    await poll(() => preview.locator("frontdesk-widget .head").evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(194, 65, 12)");
    // The list shows it too (agent.updated).
    expect(await agentLink.textContent()).toContain("Published");
    await page.screenshot({ path: join(ARTIFACTS, "console-agents-preview.png") });

    // A behavior rule through the form: when the visitor scrolls 60 %, a button; a link the server refuses is explained beside it.
    await page.getByRole("button", { name: "Add a rule" }).click();
    const rule = page.getByRole("group", { name: "Rule 1" });
    await rule.getByLabel("When").selectOption("scroll");
    await rule.getByLabel("Scrolled (% of the page)").fill("60");
    await rule.getByLabel("Then").selectOption("cta");
    await rule.getByLabel("Button label").fill("See tandems");
    await rule.getByLabel("Button link").fill("tandems please");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => rule.locator("#rule-0-action-url-error").isVisible()).toBe(true);
    expect(await rule.getByLabel("Button link").getAttribute("aria-invalid")).toBe("true");
    await rule.getByLabel("Button link").fill("https://acme-bikes.test/tandems");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByText(/^Saved at/).isVisible()).toBe(true);
    const stored = await stage.t.services.db.query<{ behavior_rules: unknown }>(`SELECT behavior_rules FROM agents WHERE id = $1`, [stage.tenant.agentId]);
    expect(stored.rows[0]?.behavior_rules).toEqual([
      { id: "rule-1", trigger: { type: "scroll", percent: 60 }, action: { type: "cta", label: "See tandems", url: "https://acme-bikes.test/tandems" } },
    ]);

    // Dark mode and tablet width.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-agents-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: join(ARTIFACTS, "console-agents-tablet.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // The sticky Save bar never hides a field: tabbing through the form at 1280 px and at tablet widths, each control is on top where it shows.
    for (const [width, height] of [[1280, 800], [820, 700]] as const) {
      await page.setViewportSize({ width, height });
      await page.locator("#agent-name").focus();
      const hidden: string[] = [];
      for (let step = 0; step < 80; step += 1) {
        const focused = await page.evaluate(() => {
          const active = document.activeElement as HTMLElement;
          if (!active.closest(".agent-form") || active.closest(".form-actions")) return null;
          const box = active.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return { name: active.id || active.textContent || active.tagName, shown: hit !== null && active.contains(hit) };
        });
        if (!focused) break;
        if (!focused.shown) hidden.push(focused.name);
        await page.keyboard.press("Tab");
      }
      expect(hidden, `${width} px`).toEqual([]);
    }
    await page.screenshot({ path: join(ARTIFACTS, "console-agents-form-end-tablet.png") });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("security: an agent-role operator reads the agent but the server refuses its changes and its unpublishing, and the console shows the server's message", async () => {
    const { page } = await signIn("bo@acme-bikes.test", "agent", `/console/agents/${stage.tenant.agentId}`);
    await poll(() => page.getByLabel("Tone").isVisible()).toBe(true);
    await page.getByLabel("Tone").fill("grumpy");
    await page.getByRole("button", { name: "Save changes" }).click();
    const form = page.locator("form.agent-form");
    await poll(() => form.getByRole("alert").textContent()).toBe("Only an admin of the workspace may do this.");
    await page.getByRole("button", { name: "Unpublish" }).click();
    await poll(() => page.locator(".publication").getByRole("alert").textContent()).toBe("Only an admin of the workspace may do this.");
    await page.screenshot({ path: join(ARTIFACTS, "console-agents-refused.png") });
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing changed on the server.
    const { rows } = await stage.t.services.db.query<{ persona_tone: string; published: boolean }>(`SELECT persona_tone, published FROM agents WHERE id = $1`, [stage.tenant.agentId]);
    expect(rows).toEqual([{ persona_tone: expect.not.stringMatching(/grumpy/), published: true }]);
  }, 60_000);
});
