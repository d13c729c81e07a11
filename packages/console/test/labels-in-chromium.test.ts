import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/**
 * Labels and the visitor's profile in Chromium, on the real service: an admin creates labels in
 * Settings (the server's 409 shown), an operator puts one on a conversation and takes another off
 * beside its transcript, filters the inbox by it and reads the count in Analytics; the side column
 * shows the visitor's local time, language, browser in words, this conversation's pages, their
 * earlier conversation (a link), lead and ratings. Light, dark; no serious axe violation.
 */
describeNeeding("chromium-headless-shell")("labels and the visitor's profile, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  const conversations: { earlier: string; current: string; other: string } = { earlier: "", current: "", other: "" };

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_LLM_PROVIDER: "extractive", FRONTDESK_RATE_LIMIT_SATISFACTION_PER_MINUTE: "1000" }), launchChromium()]);
    const inject = async (path: string, payload: Record<string, unknown>, headers: Record<string, string>) => {
      const response = await stage.t.app.inject({ method: "POST", url: `/api/v1/widget${path}`, headers, payload });
      expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
      return response.json().data;
    };
    const browserHeaders = { origin: stage.site.origin, "user-agent": FIREFOX_WINDOWS, "accept-language": "fr-CH, fr;q=0.9" };
    const start = (body: Record<string, unknown>) =>
      inject("/init", { agent_id: stage.tenant.agentId, page_url: stage.site.url("/tents"), time_zone: "Europe/Zurich", ...body }, browserHeaders);
    const earlier = await start({});
    const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
    const asked = await inject("/messages", { message: "Is the Alpine 2 tent waterproof?" }, bearer(earlier.jwt));
    await inject(`/messages/${asked.message_id}/feedback`, { rating: "down", comment: "It did not say" }, bearer(earlier.jwt));
    await inject("/satisfaction", { rating: "bad", comment: "Too slow" }, bearer(earlier.jwt));
    await inject("/leads", { name: "Noor Haddad", email: "noor@example.com" }, bearer(earlier.jwt));
    const current = await start({ anon_id: earlier.anonymous_id, new_conversation: true });
    await inject("/messages", { message: "The fly of my tent is torn", page_url: stage.site.url("/tents/alpine-2"), page_context: { title: "Alpine 2 tent" } }, bearer(current.jwt));
    await inject("/messages", { message: "Can I return it?", page_url: stage.site.url("/returns"), page_context: { title: "Returns" } }, bearer(current.jwt));
    await inject("/request-human", { reason: "Torn fly" }, bearer(current.jwt));
    const other = await inject("/init", { agent_id: stage.tenant.agentId, page_url: stage.site.url("/") }, { origin: stage.site.origin });
    await inject("/request-human", { reason: "Delivery" }, bearer(other.jwt));
    Object.assign(conversations, { earlier: earlier.conversation_id, current: current.conversation_id, other: other.conversation_id });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const failureShot = (page: Page, name: string, errors: string[]) =>
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
      console.error("console page errors:", errors, "at", page.url());
    });

  it("happy: an admin creates labels in Settings (a taken name refused), changes one; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "lea@acme-bikes.test", name: "Lea", role: "admin" }, "/console/settings");
    failureShot(page, "console-labels-settings-failure.png", pageErrors);
    const section = page.getByRole("region", { name: "Labels" });
    await poll(() => section.getByText("No labels yet.").isVisible()).toBe(true);
    const form = section.getByRole("form", { name: "Create a label" });
    for (const [name, colour] of [["VIP", "#6f42c1"], ["Refund", "#d73a49"], ["Shipping", "#0969da"]] as const) {
      await form.getByLabel("New label").fill(name);
      await form.getByLabel("Colour").fill(colour);
      await form.getByRole("button", { name: "Create label" }).click();
      await poll(() => section.getByRole("row").filter({ hasText: name }).count()).toBe(1);
    }
    await form.getByLabel("New label").fill("vip");
    await form.getByRole("button", { name: "Create label" }).click();
    await poll(() => form.getByRole("alert").textContent()).toBe("The workspace has a label named “vip” already.");
    expect(await seriousViolations(page)).toEqual([]);
    await section.getByRole("button", { name: "Change Shipping" }).click();
    const change = section.getByRole("form", { name: "Change Shipping" });
    await change.getByLabel("Name").fill("Delivery");
    await change.getByRole("button", { name: "Save" }).click();
    await poll(() => section.getByRole("row").filter({ hasText: "Delivery" }).count()).toBe(1);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(ARTIFACTS, "console-labels-settings.png") });
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it("happy: an operator labels a conversation beside the visitor's profile, filters the inbox by label and reads Analytics; dark; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "omar@acme-bikes.test", name: "Omar", role: "agent" }, `/console/inbox/${conversations.current}`);
    failureShot(page, "console-labels-conversation-failure.png", pageErrors);
    await page.setViewportSize({ width: 1400, height: 900 });
    const labels = page.getByRole("group", { name: "Labels of this conversation" });
    await poll(() => labels.getByText("No labels").isVisible()).toBe(true);

    // The visitor's profile: local time, language, browser in words, pages, history, lead, ratings.
    const details = page.getByRole("complementary", { name: "About the visitor" });
    await poll(() => details.getByText("Pages in this conversation").isVisible()).toBe(true);
    const text = (await details.textContent()) ?? "";
    expect(text).toContain("Europe/Zurich");
    expect(text).toContain("fr-CH");
    expect(text).toContain("Firefox 133 on Windows 10, computer");
    expect(text).not.toContain("Mozilla/5.0");
    expect(await details.getByRole("link", { name: "Alpine 2 tent", exact: true }).getAttribute("href")).toBe(stage.site.url("/tents/alpine-2"));
    expect(await details.getByRole("link", { name: "Returns", exact: true }).count()).toBe(1);
    expect(text).toContain("Noor Haddad · noor@example.com");
    expect(text).toContain("Conversation rated bad — “Too slow”");
    expect(text).toMatch(/Answer rated not helpful: [\s\S]+ — “It did not say”/);
    const earlierLink = details.getByRole("link", { name: "Is the Alpine 2 tent waterproof?" });
    expect(await earlierLink.getAttribute("href")).toBe(`/console/inbox/${conversations.earlier}`);

    // Put two labels on, take one off.
    const add = labels.getByLabel("Add a label");
    await add.selectOption({ label: "VIP" });
    await poll(() => labels.getByRole("button", { name: "Remove label VIP" }).isVisible()).toBe(true);
    await add.selectOption({ label: "Refund" });
    await poll(() => labels.getByRole("button", { name: "Remove label Refund" }).isVisible()).toBe(true);
    await labels.getByRole("button", { name: "Remove label Refund" }).click();
    await poll(() => labels.getByRole("button", { name: "Remove label Refund" }).count()).toBe(0);
    await poll(() => page.getByRole("list", { name: /^Conversations/ }).locator(":scope > li").filter({ hasText: "VIP" }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, "console-labels-conversation.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-labels-conversation-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // The inbox filtered by label: only the labelled conversation, its chip shown with its name.
    const rows = page.getByRole("list", { name: /^Conversations/ }).locator(":scope > li");
    await poll(() => rows.count()).toBe(3);
    await page.getByLabel("Label", { exact: true }).selectOption({ label: "VIP" });
    await poll(() => rows.count()).toBe(1);
    expect(page.url()).toContain("label=");
    expect(await rows.first().getByRole("list", { name: "Labels" }).textContent()).toBe("VIP");
    await page.screenshot({ path: join(ARTIFACTS, "console-labels-inbox-filtered.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Label", { exact: true }).selectOption({ label: "Refund" });
    await poll(() => page.getByText("No conversation here carries this label.").isVisible()).toBe(true);

    // Analytics counts conversations per label.
    await page.goto(`${stage.serviceUrl}/console/analytics?agent=${stage.tenant.agentId}`);
    const card = page.getByRole("region", { name: "Conversations per label" });
    await poll(() => card.locator("ol > li").count()).toBe(3);
    expect(await card.locator("ol > li").first().textContent()).toMatch(/^VIP\s*1/);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(ARTIFACTS, "console-labels-analytics.png") });
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await screenshotWhole(page, ".analytics", "console-labels-analytics-whole.png");
    await context.close();
  }, 120_000);

  it("happy: the widget reports the visitor's time zone at init and the browser their language; the console shows their local time", async () => {
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: "Asia/Tokyo", locale: "ja-JP" });
    const host = await visitor.newPage();
    await host.goto(stage.hostPage("/kyoto"));
    await host.locator("frontdesk-widget .launcher").click();
    await poll(() => host.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    await host.getByRole("textbox", { name: "Message" }).fill("Do you deliver to Kyoto?");
    await host.keyboard.press("Enter");
    const started = async () =>
      (await stage.t.services.db.query<{ id: string; time_zone: string | null; language: string | null }>(`SELECT id, time_zone, language FROM conversations WHERE page_url = $1`, [stage.site.url("/kyoto")])).rows[0];
    await poll(async () => (await started())?.time_zone ?? null).toBe("Asia/Tokyo");
    const conversation = (await started())!;
    expect(conversation.language).toBe("ja-JP");
    await visitor.close();

    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "kai@acme-bikes.test", name: "Kai", role: "agent" }, `/console/inbox/${conversation.id}`);
    failureShot(page, "console-visitor-profile-failure.png", pageErrors);
    await page.setViewportSize({ width: 1400, height: 900 });
    const details = page.getByRole("complementary", { name: "About the visitor" });
    await poll(() => details.getByText("Local time").isVisible()).toBe(true);
    const text = (await details.textContent()) ?? "";
    expect(text).toContain("(Asia/Tokyo)");
    expect(text).toContain("ja-JP");
    expect(text).toContain("This is their first.");
    await details.screenshot({ path: join(ARTIFACTS, "console-visitor-profile.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // An automation labels the conversation with an API token: the open console shows it live, without a reload.
    const { token } = (await runAdminCommand(adminOf(stage.t.services), {
      command: "token.create",
      workspaceId: stage.tenant.workspaceId,
      name: "Router",
      abilities: ["conversations:label"],
    })) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const labels = (await stage.t.app.inject({ method: "GET", url: "/api/v1/workspace/labels", headers: auth })).json().data as { id: string; name: string }[];
    const vip = labels.find((label) => label.name === "VIP")!;
    const put = await stage.t.app.inject({ method: "PUT", url: `/api/v1/workspace/conversations/${conversation.id}/labels/${vip.id}`, headers: auth });
    expect(put.statusCode, put.body).toBe(200);
    const group = page.getByRole("group", { name: "Labels of this conversation" });
    await poll(() => group.getByRole("button", { name: "Remove label VIP" }).isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
