import { join } from "node:path";
import type { Browser, BrowserContext, Page, WebSocket, WebSocketRoute } from "playwright-core";
import Pusher from "pusher-js";
import type { Channel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { CONSOLE, consoleChannelAuthorizer, createSignedInOperator, type ConsoleSession } from "../../server/test/support/console-session.js";
import { pusherOptionsFor, type ReverbDescriptor } from "../../server/test/support/realtime-clients.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, modelAnswer, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";
import { seriousViolations } from "./support/widget-axe.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });

const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", (error: unknown) => reject(new Error(`subscription refused: ${JSON.stringify(error)}`)));
  });

/**
 * The human handoff in a real browser: the widget on a host site of another origin, an operator
 * of the workspace signed in to the console API with a pusher-js client of their own (online on
 * the presence channel), taking the conversation over, typing, replying and handing it back.
 */
describeNeeding("chromium-headless-shell")("the human handoff in the widget, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let reverb: ReverbDescriptor;
  const clients: Pusher[] = [];

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const init = await fetch(`${stage.serviceUrl}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: stage.site.origin, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: stage.tenant.agentId, page_url: stage.site.url("/") }),
    });
    reverb = ((await init.json()) as { data: { reverb: ReverbDescriptor } }).data.reverb;
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await browser?.close();
    await stage?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  async function openWidget(path: string): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.goto(stage.hostPage(path));
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => page.getByRole("dialog").isVisible()).toBe(true);
    await poll(() => page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    return page;
  }

  const log = () => page.getByRole("log", { name: "Conversation" });
  const logText = async () => (await log().textContent()) ?? "";
  const ask = async (text: string) => {
    await page.getByRole("textbox", { name: "Message" }).fill(text);
    await page.keyboard.press("Enter");
  };

  /** An operator signed in to the console, online (presence) and listening to the workspace's channel. */
  async function onlineOperator(name: string) {
    const operator = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "agent", name });
    const authUrl = `${stage.serviceUrl}${CONSOLE}/broadcasting/auth`;
    const client = new Pusher(
      reverb.app_key,
      pusherOptionsFor(reverb, { channelAuthorization: { endpoint: authUrl, transport: "ajax", customHandler: consoleChannelAuthorizer(authUrl, operator.headers) } }),
    );
    clients.push(client);
    const requests: string[] = [];
    const workspace = client.subscribe(`private-workspace.${stage.tenant.workspaceId}`);
    workspace.bind("human.requested", (data: { conversation_id: string }) => requests.push(data.conversation_id));
    await subscribed(workspace);
    await subscribed(client.subscribe(`presence-operators.${stage.tenant.workspaceId}`));
    return { operator, client, requests };
  }

  const consolePost = (operator: ConsoleSession, path: string, body?: unknown) =>
    fetch(`${stage.serviceUrl}${CONSOLE}${path}`, {
      method: "POST",
      headers: { ...operator.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("happy: nobody online → asking for a person offers to leave an e-mail, and the lead is stored with the conversation", async () => {
    await openWidget("/no-one-online");
    // The realtime client is loaded (its own chunk) and connected only once a person is asked for.
    const sockets: string[] = [];
    const socketObjects: WebSocket[] = [];
    page.on("websocket", (socket) => {
      sockets.push(socket.url());
      socketObjects.push(socket);
    });
    const scripts = () => page.evaluate(() => performance.getEntriesByType("resource").filter((entry) => /\/widget\/assets\//.test(entry.name)).length);
    const scriptsBefore = await scripts();
    expect(sockets).toEqual([]);
    // The menu opens from the header; Escape closes the menu and leaves the panel open.
    await page.getByRole("button", { name: "More options" }).click();
    expect(await page.getByRole("button", { name: "More options" }).getAttribute("aria-expanded")).toBe("true");
    await page.screenshot({ path: join(ARTIFACTS, "handoff-menu.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await poll(() => page.getByRole("menu").count()).toBe(0);
    expect(await page.getByRole("dialog").isVisible()).toBe(true);
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("menuitem", { name: "Talk to a person" }).click();
    await poll(() => page.getByRole("textbox", { name: "Your e-mail" }).isVisible()).toBe(true);
    await poll(() => sockets.length).toBe(1);
    expect(sockets[0]).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/app\/[^?]+\?protocol=7/);
    expect(sockets[0]).not.toMatch(/eyJ/); // no token in the URL
    expect(await scripts()).toBe(scriptsBefore + 1);
    // The server's own system message says what happens.
    await poll(logText).toMatch(/Waiting for a person/i);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-nobody-online.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);

    // A malformed address is refused with a word, then a good one is stored.
    await page.getByRole("textbox", { name: "Your e-mail" }).fill("not-an-address");
    await page.getByRole("textbox", { name: "Your e-mail" }).evaluate((input) => input.removeAttribute("type"));
    await page.getByRole("button", { name: "Send e-mail" }).click();
    await poll(() => log().getByText("Please check the e-mail address.").isVisible()).toBe(true);
    await page.getByRole("textbox", { name: "Your e-mail" }).fill("rider@example.org");
    await page.getByRole("button", { name: "Send e-mail" }).click();
    await poll(() => log().getByText("Thanks! We'll get back to you by e-mail.").isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-lead-saved.png"), clip: WIDGET_CLIP });

    const { rows } = await stage.t.services.db.query<{ email: string; conversation_id: string; status: string }>(
      `SELECT l.email, l.conversation_id, c.status FROM leads l JOIN conversations c ON c.id = l.conversation_id WHERE l.agent_id = $1`,
      [stage.tenant.agentId],
    );
    expect(rows).toEqual([{ email: "rider@example.org", conversation_id: expect.any(String), status: "awaiting_human" }]);

    // Frontdesk.reset() forgets the visitor: the socket listening to their conversation closes with them.
    expect(socketObjects[0]!.isClosed()).toBe(false);
    await page.evaluate(() => (window as unknown as { Frontdesk: { reset(): void } }).Frontdesk.reset());
    await poll(() => socketObjects[0]!.isClosed()).toBe(true);
  });

  it("happy: a low-confidence answer offers a person → Ana joins, types and replies live; the visitor's messages get no bot answer; released, the assistant is back and answers; the visitor's typing reaches her at most once per 2 s", async () => {
    const ana = await onlineOperator("Ana");
    await openWidget("/handoff");
    stage.model.respondWith(modelAnswer(["[0] I'm not sure about that. I can connect you with a person from the team."]));
    await ask("Can I bring my dog to the test ride?");
    const offer = log().getByRole("button", { name: "Talk to a person" });
    await poll(() => offer.isVisible()).toBe(true);
    await offer.click();
    await poll(logText).toMatch(/Waiting for a person/i);
    expect(await offer.count()).toBe(0);
    expect(await page.getByRole("textbox", { name: "Your e-mail" }).count()).toBe(0);
    await poll(() => ana.requests.length).toBe(1);
    const conversationId = ana.requests[0]!;

    // The page hears every message the visitor receives (Frontdesk.on("message")), the operator's and the system's too.
    await page.evaluate(() => {
      const record = window as unknown as { Frontdesk: { on(event: string, handler: (detail: unknown) => void): void }; __heard: unknown[] };
      record.__heard = [];
      record.Frontdesk.on("message", (detail) => record.__heard.push(detail));
    });
    const heard = () => page.evaluate(() => (window as unknown as { __heard: { role: string; content: string }[] }).__heard.map(({ role, content }) => `${role}: ${content}`));

    // Ana takes over: the widget says she joined.
    expect((await consolePost(ana.operator, `/conversations/${conversationId}/assign`)).status).toBe(200);
    await poll(logText).toMatch(/Ana joined/);
    // She types: the widget shows it with her name; then she replies, shown with her name.
    expect((await consolePost(ana.operator, `/conversations/${conversationId}/typing`, { typing: true })).status).toBeLessThan(300);
    await poll(() => log().getByText("Ana is typing…").isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-operator-typing.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);
    expect((await consolePost(ana.operator, `/conversations/${conversationId}/messages`, { content: "Hi, I'm Ana. Dogs are welcome on a leash!" })).status).toBeLessThan(300);
    const reply = log().locator(".msg", { hasText: "Dogs are welcome on a leash!" });
    await poll(() => reply.isVisible()).toBe(true);
    expect(await reply.locator(".author").textContent()).toBe("Ana");
    await poll(heard).toEqual(["system: Ana joined the conversation", "operator: Hi, I'm Ana. Dogs are welcome on a leash!"]);
    await poll(() => log().getByText("Ana is typing…").count()).toBe(0);
    expect(await page.locator("frontdesk-widget .head .subtitle").textContent()).toBe("Ana");

    // After a reload the conversation resumes with Ana (status human at init): live again at once.
    await page.reload();
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => log().getByText("Dogs are welcome on a leash!").count()).toBe(1);
    expect((await consolePost(ana.operator, `/conversations/${conversationId}/messages`, { content: "Still there after the reload?" })).status).toBeLessThan(300);
    await poll(() => log().getByText("Still there after the reload?").count()).toBe(1);

    // The visitor answers: shown once, sent, and no bot answer is expected (no model call, no spinner left).
    const modelCalls = stage.model.requests.length;
    // Every POST /typing of the visitor from the first keystroke on.
    const posted: number[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/v1/widget/typing")) posted.push(Date.now());
    });
    const startedTyping = Date.now();
    await page.getByRole("textbox", { name: "Message" }).pressSequentially("Great, see you on Saturday then", { delay: 10 });
    const typingFor = Date.now() - startedTyping;
    const typingPosts = posted.length;
    await page.keyboard.press("Enter");
    await poll(() => log().locator(".from-visitor", { hasText: "Great, see you on Saturday then" }).count()).toBe(1);
    await poll(() => page.locator("frontdesk-widget .send").isDisabled()).toBe(true);
    await poll(() => log().locator('[aria-busy="true"]').count()).toBe(0);
    await poll(async () => Number((await stage.t.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE conversation_id = $1 AND role = 'visitor'`, [conversationId])).rows[0]?.n)).toBe(2);
    expect(stage.model.requests.length).toBe(modelCalls);
    expect(await log().locator(".from-visitor", { hasText: "Great, see you on Saturday then" }).count()).toBe(1);
    // 31 keystrokes, and at most one POST /typing per 2 seconds of typing.
    expect(typingPosts).toBeGreaterThanOrEqual(1);
    expect(typingPosts).toBeLessThanOrEqual(Math.floor(typingFor / 2000) + 1);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-operator-reply.png"), clip: WIDGET_CLIP });

    // Ana hands back: "The assistant is back", and the bot answers the next question.
    expect((await consolePost(ana.operator, `/conversations/${conversationId}/release`)).status).toBe(200);
    await poll(logText).toMatch(/The assistant is back/);
    stage.model.respondWith(modelAnswer(["Refunds are paid within five working days [1]."]));
    await ask("When are refunds paid?");
    await poll(() => log().locator(".msg.from-agent").last().textContent()).toContain("Refunds are paid within five working days.");
    await poll(() => log().locator('[aria-busy="true"]').count()).toBe(0);
    // Each message once: the channel's copies of the visitor's and the bot's own messages are not added again.
    expect(await log().getByText("Refunds are paid within five working days.").count()).toBe(1);
    expect(await log().locator(".from-visitor", { hasText: "When are refunds paid?" }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-assistant-back.png"), clip: WIDGET_CLIP });

    // "New conversation" in the menu starts a fresh one.
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("menuitem", { name: "New conversation" }).click();
    await poll(logText).toContain("Hi, I'm Ada. How can I help?");
    expect(await log().getByText("Refunds are paid").count()).toBe(0);
    const { rows } = await stage.t.services.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM conversations WHERE visitor_id = (SELECT visitor_id FROM conversations WHERE id = $1)`,
      [conversationId],
    );
    expect(Number(rows[0]?.n)).toBe(2);
  }, 90_000);

  it("happy: a visitor who writes that they want a person waits for one at once (no model is asked, no button to press), and Ana hears of it", async () => {
    const ana = await onlineOperator("Ana");
    await openWidget("/handoff");
    const answers = stage.model.requests.length;
    await ask("Can I talk to a human?");
    await poll(logText).toMatch(/Waiting for a person/i);
    await poll(() => ana.requests.length).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-asked-in-words.png"), clip: WIDGET_CLIP });
    expect(stage.model.requests.length).toBe(answers);
    expect(await log().getByRole("button", { name: "Talk to a person" }).count()).toBe(0);
    expect(await logText()).toBe("Can I talk to a human?Waiting for a person to join");
  });

  it("happy: the session token is renewed five minutes before it expires (init again: same visitor, same conversation), and the new one is used", async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.clock.install();
    const inits: { body: Record<string, unknown>; conversationId: string; jwt: string }[] = [];
    page.on("response", async (response) => {
      if (!response.url().endsWith("/api/v1/widget/init")) return;
      const body = response.request().postDataJSON() as Record<string, unknown>;
      const { data } = (await response.json()) as { data: { conversation_id: string; jwt: string } };
      inits.push({ body, conversationId: data.conversation_id, jwt: data.jwt });
    });
    await page.goto(stage.hostPage("/renew"));
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => inits.length).toBe(1);
    await page.clock.fastForward("56:00");
    await poll(() => inits.length).toBe(2);
    expect(inits[1]!.body).toMatchObject({ agent_id: stage.tenant.agentId, anon_id: expect.any(String) });
    expect(inits[1]!.body.new_conversation).toBeUndefined();
    expect(inits[1]!.conversationId).toBe(inits[0]!.conversationId);
    expect(inits[1]!.jwt).not.toBe(inits[0]!.jwt);
    const bearer = page.waitForRequest((request) => request.url().endsWith("/api/v1/widget/messages/stream"));
    stage.model.respondWith(modelAnswer(["Orders over 50 euros ship for free [1]."]));
    await ask("Is shipping free?");
    expect((await bearer).headers().authorization).toBe(`Bearer ${inits[1]!.jwt}`);
    await poll(() => log().locator(".msg.from-agent").last().textContent()).toContain("Orders over 50 euros ship for free.");
  });

  it("happy: after the realtime connection was lost, the operator's messages sent meanwhile appear once it is back (caught up by seq)", async () => {
    const bea = await onlineOperator("Bea");
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    // The widget's WebSocket goes through the test: `blocked` leaves new connections unanswered (a dead network).
    let blocked = false;
    const live: WebSocketRoute[] = [];
    const held: WebSocketRoute[] = [];
    await context.routeWebSocket(/\/app\//, (socket) => {
      if (blocked) held.push(socket);
      else {
        socket.connectToServer();
        live.push(socket);
      }
    });
    await page.goto(stage.hostPage("/reconnect"));
    // The page hears each status change.
    await page.evaluate(() => {
      const record = window as unknown as { __handoff: unknown[]; Frontdesk: { on(event: string, handler: (detail: unknown) => void): void } };
      record.__handoff = [];
      record.Frontdesk.on("handoff", (detail) => record.__handoff.push(detail));
    });
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("menuitem", { name: "Talk to a person" }).click();
    await poll(() => bea.requests.length).toBe(1);
    const conversationId = bea.requests[0]!;
    expect((await consolePost(bea.operator, `/conversations/${conversationId}/assign`)).status).toBe(200);
    await poll(logText).toMatch(/Bea joined/);
    expect(live.length).toBe(1);
    await poll(() => page.evaluate(() => (window as unknown as { __handoff: unknown[] }).__handoff)).toEqual([
      { status: "awaiting_human", assignee: null },
      { status: "human", assignee: { name: "Bea" } },
    ]);

    // The connection drops and cannot come back.
    blocked = true;
    await live[0]!.close({ code: 4200, reason: "network lost" });
    await poll(() => held.length).toBeGreaterThanOrEqual(1);
    for (const content of ["Are you still there?", "I found your order: it ships tomorrow."]) {
      expect((await consolePost(bea.operator, `/conversations/${conversationId}/messages`, { content })).status).toBeLessThan(300);
    }
    // More than a page of the catch-up (100): the widget must fetch them page after page.
    const notes = Array.from({ length: 105 }, (_, index) => `Note ${index + 1}.`);
    for (const content of notes) expect((await consolePost(bea.operator, `/conversations/${conversationId}/messages`, { content })).status).toBeLessThan(300);
    expect(await log().getByText("Are you still there?").count()).toBe(0);

    // Back: the widget resubscribes and fetches what it missed, in order, each once.
    blocked = false;
    for (const socket of held.splice(0)) await socket.close({ code: 4200, reason: "network back" });
    await poll(() => log().getByText("Note 105.", { exact: true }).count()).toBe(1);
    const texts = await log().locator(".msg .bubble").allTextContents();
    expect(texts.filter((text) => text.startsWith("Note "))).toEqual(notes);
    const first = texts.indexOf("Are you still there?");
    expect(first).toBeGreaterThan(-1);
    expect(texts[first + 1]).toBe("I found your order: it ships tomorrow.");
    expect(texts.filter((text) => text === "Are you still there?")).toHaveLength(1);
    expect(await log().locator(".from-system .bubble").allTextContents()).toEqual(["Waiting for a person to join", "Bea joined the conversation"]);
    await page.screenshot({ path: join(ARTIFACTS, "handoff-caught-up.png"), clip: WIDGET_CLIP });
  }, 90_000);

  it("happy: the handoff's system messages are shown in the widget's language, by the code the service sends with its English text (the joined operator's name from the message's author)", async () => {
    const cleo = await onlineOperator("Cleo");
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.goto(stage.hostPage("/en-francais", { attributes: { language: "fr" } }));
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Plus d’options" }).click();
    await page.getByRole("menuitem", { name: "Parler à une personne" }).click();
    await poll(() => log().locator(".from-system").count()).toBe(1);
    expect(await log().locator(".from-system .bubble").textContent()).toBe("En attente d’une personne");
    expect(await logText()).not.toContain("Waiting for a person");
    await poll(() => cleo.requests.length).toBe(1);
    expect((await consolePost(cleo.operator, `/conversations/${cleo.requests[0]!}/assign`)).status).toBe(200);
    await poll(() => log().locator(".from-system .bubble").allTextContents()).toEqual(["En attente d’une personne", "Cleo a rejoint la conversation"]);
    // The operator's name is in the sentence, not over it as an author line.
    expect(await log().locator(".from-system .author").count()).toBe(0);
  });
});
