import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../../server/test/support/console-session.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";
import { seriousViolations } from "./support/widget-axe.js";

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 50 });

/**
 * The link of an e-mailed operator's reply (issue 30) in a real browser: a page of the site opened
 * with `#frontdesk_resume=<token>` on a browser that never saw the visitor opens the widget on the
 * same conversation, takes the token out of the address bar, and acknowledges the replies it shows.
 */
describeNeeding("chromium-headless-shell")("the resume link of an e-mailed reply, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let operator: ConsoleSession;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    operator = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "agent", name: "Ana" });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stage?.close();
  });

  const widgetPost = async (jwt: string, path: string, body: unknown) => {
    const response = await fetch(`${stage.serviceUrl}/api/v1/widget${path}`, { method: "POST", headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  };
  const consolePost = async (path: string, body: unknown) => {
    const response = await fetch(`${stage.serviceUrl}${CONSOLE}${path}`, { method: "POST", headers: { ...operator.headers, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as { data: { seq: number } };
  };
  const seenSeq = async (conversationId: string) =>
    Number((await stage.t.services.db.query<{ seq: string | number }>(`SELECT visitor_seen_seq AS seq FROM conversations WHERE id = $1`, [conversationId])).rows[0]!.seq);

  it("happy: the link opens the widget on the same conversation with the reply, leaves no token in the address, and live replies are acknowledged", async () => {
    const init = await fetch(`${stage.serviceUrl}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: stage.site.origin, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: stage.tenant.agentId, page_url: stage.site.url("/orders") }),
    });
    const session = ((await init.json()) as { data: { jwt: string; conversation_id: string; visitor_id: string; anonymous_id: string } }).data;
    await widgetPost(session.jwt, "/leads", { email: "mia@visitors.test" });
    await widgetPost(session.jwt, "/request-human", { reason: "Where is my parcel?" });
    await consolePost(`/conversations/${session.conversation_id}/assign`, {});
    const reply = await consolePost(`/conversations/${session.conversation_id}/messages`, { content: "Your parcel left today." });
    expect(await seenSeq(session.conversation_id)).toBeLessThan(reply.data.seq);
    const token = stage.t.services.resumeTokens.issue({ conversationId: session.conversation_id, visitorId: session.visitor_id, agentId: stage.tenant.agentId }, 60_000);

    // Another browser: no anonymous id of the visitor's in its storage.
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${stage.hostPage("/orders")}#frontdesk_resume=${token}`);
    await poll(() => page.getByRole("dialog").isVisible()).toBe(true);
    const log = page.getByRole("log", { name: "Conversation" });
    await poll(async () => (await log.textContent()) ?? "").toContain("Your parcel left today.");
    expect(page.url()).not.toContain("frontdesk_resume");
    expect(await page.evaluate((key) => localStorage.getItem(key), `frontdesk:${stage.tenant.agentId}:anon`)).toBe(session.anonymous_id);
    expect(await seenSeq(session.conversation_id)).toBeGreaterThanOrEqual(reply.data.seq);
    await page.screenshot({ path: join(ARTIFACTS, "resume-link.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // A reply that arrives live is acknowledged by the widget: it will not be e-mailed.
    await poll(() => page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const live = await consolePost(`/conversations/${session.conversation_id}/messages`, { content: "It arrives on Monday." });
    await poll(async () => (await log.textContent()) ?? "").toContain("It arrives on Monday.");
    await poll(() => seenSeq(session.conversation_id)).toBeGreaterThanOrEqual(live.data.seq);
  });
});
