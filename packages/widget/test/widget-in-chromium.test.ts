import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { bikeShopKnowledge } from "../../server/test/support/knowledge.js";
import { ARTIFACTS, modelAnswer, promptPassages, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });

/** The widget's corner of a 1280×800 page, for the README. */
const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };

const HOSTILE_CSS = "* { all: unset !important } div { display: none }";

/** A promise the test resolves when it has seen what it waited for. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describeNeeding("chromium-headless-shell")("the widget in Chromium, on a host site of another origin", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** What the page logged as errors, and the CSP violations it reported. */
  let consoleErrors: string[];

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    stage.site.routes.set("/hostile.css", (_request, response) => {
      response.writeHead(200, { "content-type": "text/css" });
      response.end(HOSTILE_CSS);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  async function openPage(url: string, viewport = { width: 1280, height: 800 }, install?: (page: Page) => Promise<void>): Promise<Page> {
    context = await browser.newContext({ viewport });
    page = await context.newPage();
    await install?.(page);
    consoleErrors = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await page.addInitScript(() => {
      const record = window as unknown as { __globalsBefore: string[]; __violations: string[] };
      record.__globalsBefore = Object.getOwnPropertyNames(window);
      record.__violations = [];
      document.addEventListener("securitypolicyviolation", (event) => record.__violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    await page.goto(url);
    return page;
  }
  afterEach(async () => {
    await context?.close();
  });

  const launcher = () => page.locator("frontdesk-widget .launcher");
  const dialog = () => page.getByRole("dialog", { name: "Ada" });
  const lastAnswer = () => page.locator("frontdesk-widget .msg.from-agent").last();
  const lastAnswerText = () => lastAnswer().locator(".bubble").textContent();

  it("happy: the script tag paints a launcher button with an accessible name, and defines window.Frontdesk and nothing else", async () => {
    await openPage(stage.hostPage("/plain"));
    await poll(() => launcher().count()).toBe(1);
    await poll(() => page.getByRole("button", { name: "Open chat" }).count()).toBe(1);
    const globals = await page.evaluate(() => {
      const before = new Set((window as unknown as { __globalsBefore: string[] }).__globalsBefore);
      return Object.getOwnPropertyNames(window).filter((name) => !before.has(name) && !name.startsWith("__"));
    });
    expect(globals).toEqual(["Frontdesk"]);
    const box = await launcher().boundingBox();
    expect(box).toMatchObject({ width: 56, height: 56, x: 1280 - 20 - 56, y: 800 - 20 - 56 });
    await page.screenshot({ path: join(ARTIFACTS, "launcher.png") });
  });

  it("happy: opening shows a labelled dialog with the persona, the agent's colour with contrasting text and the starter prompts; Escape closes it and focus returns to the launcher", async () => {
    await openPage(stage.hostPage("/open"));
    const headBefore = await page.evaluate(() => document.head.innerHTML);
    const bodyBefore = await page.evaluate(() => [...document.body.children].map((element) => element.tagName.toLowerCase()));
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Close chat" }).count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByRole("button", { name: "Where is my order?" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Do you ship abroad?" }).isVisible()).toBe(true);
    expect(await page.getByRole("log", { name: "Conversation" }).getAttribute("aria-live")).toBe("polite");
    // The seeded agent's primary colour is #112233: dark, so the header's text is white.
    const header = page.locator("frontdesk-widget .head");
    expect(await header.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).color])).toEqual([
      "rgb(17, 34, 51)",
      "rgb(255, 255, 255)",
    ]);
    // Focus is in the composer.
    expect(await page.evaluate(() => document.querySelector("frontdesk-widget")?.shadowRoot?.activeElement?.getAttribute("aria-label"))).toBe("Message");
    await page.screenshot({ path: join(ARTIFACTS, "open.png") });
    await page.screenshot({ path: join(ARTIFACTS, "open-widget.png"), clip: WIDGET_CLIP });

    await page.keyboard.press("Escape");
    await poll(() => dialog().count()).toBe(0);
    expect(await page.evaluate(() => document.querySelector("frontdesk-widget")?.shadowRoot?.activeElement?.className)).toBe("launcher");
    expect(await launcher().getAttribute("aria-expanded")).toBe("false");
    expect(await launcher().getAttribute("aria-label")).toBe("Open chat with Ada");
    // Nothing on the page changed outside the widget's own element.
    expect(await page.evaluate(() => document.head.innerHTML)).toBe(headBefore);
    expect(await page.evaluate(() => [...document.body.children].map((element) => element.tagName.toLowerCase()))).toEqual(bodyBefore);
    expect(await page.evaluate(() => [document.documentElement.getAttribute("style"), document.body.getAttribute("style")])).toEqual([null, null]);
  });

  it("happy: a starter prompt asks the question, and the answer renders progressively (several renders before done), as markdown, with citation chips", async () => {
    await openPage(stage.hostPage("/stream"));
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    const [second, third] = [gate(), gate()];
    stage.model.requests.length = 0;
    stage.model.respondWith(
      modelAnswer([
        "Standard delivery brings your order",
        { delta: " in **three to five working days**", after: second.promise },
        { delta: " after you place it [1].\n\n- Express delivery arrives the next working day if you order before 2 pm\n- Orders over 50 euros ship for free", after: third.promise },
      ]),
    );
    await page.getByRole("button", { name: "Where is my order?" }).click();
    const answer = lastAnswer();
    await poll(() => answer.locator(".bubble").textContent()).toBe("Standard delivery brings your order");
    expect(await answer.getAttribute("aria-busy")).toBe("true");
    second.open();
    await poll(() => answer.locator(".bubble").textContent()).toBe("Standard delivery brings your order in three to five working days");
    expect(await answer.getAttribute("aria-busy")).toBe("true");
    expect(await answer.locator("strong").textContent()).toBe("three to five working days");
    third.open();
    await poll(() => answer.getAttribute("aria-busy")).toBe(null);
    expect(await answer.locator(".bubble p").first().textContent()).toBe("Standard delivery brings your order in three to five working days after you place it.");
    expect(await answer.locator(".bubble li").allTextContents()).toEqual([
      "Express delivery arrives the next working day if you order before 2 pm",
      "Orders over 50 euros ship for free",
    ]);
    const cited = promptPassages(stage.model.requests[0]!).get(1)!;
    const chip = answer.locator("a.chip");
    expect(await chip.count()).toBe(1);
    expect(await chip.getAttribute("href")).toBe(cited);
    expect(await chip.getAttribute("rel")).toBe("noopener nofollow");
    expect(await chip.getAttribute("target")).toBe("_blank");
    // The chip shows the cited document's title (the citation's `title`); its URL is the link and the tooltip.
    expect(await chip.textContent()).toBe(bikeShopKnowledge.find((text) => text.source_url === cited)!.title);
    expect(await chip.getAttribute("title")).toBe(cited);
    // The visitor's question is in the log, and the starter prompts are gone once asked.
    expect(await page.locator("frontdesk-widget .msg.from-visitor").textContent()).toBe("Where is my order?");
    expect(await page.getByRole("button", { name: "Do you ship abroad?" }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, "answer.png") });
    await page.screenshot({ path: join(ARTIFACTS, "answer-widget.png"), clip: WIDGET_CLIP });
  });

  it("security: an answer's raw HTML shows as text, and only http(s) and mailto links become links", async () => {
    await openPage(stage.hostPage("/markdown"));
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    stage.model.respondWith(
      modelAnswer([
        `Returns: <img src=x onerror="window.__pwned=1"> <b>bold?</b> [evil](javascript:window.__pwned=2) [mail us](mailto:help@example.com) and https://shop.example.com/help/returns [1].`,
      ]),
    );
    await page.getByRole("textbox", { name: "Message" }).fill("Can I return my bike?");
    await page.keyboard.press("Enter");
    const answer = lastAnswer();
    await poll(() => answer.getAttribute("aria-busy")).toBe(null);
    expect(await answer.locator(".bubble").textContent()).toBe(
      'Returns: <img src=x onerror="window.__pwned=1"> <b>bold?</b> evil mail us and https://shop.example.com/help/returns.',
    );
    expect(await answer.locator("img, b, script").count()).toBe(0);
    const links = await answer.locator(".bubble a").evaluateAll((anchors) => anchors.map((anchor) => [anchor.getAttribute("href"), anchor.getAttribute("rel")]));
    expect(links).toEqual([
      ["mailto:help@example.com", "noopener nofollow"],
      ["https://shop.example.com/help/returns", "noopener nofollow"],
    ]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it("security: a hostile stylesheet on the page (* { all: unset !important } div { display: none }) does not break the widget", async () => {
    await openPage(stage.hostPage("/hostile", { stylesheets: ["/hostile.css"] }));
    // The stylesheet is in force on the page itself: its !important `all: unset` even beats its own `display: none`.
    expect(await page.locator("div.content").evaluate((element) => getComputedStyle(element).display)).toBe("inline");
    const box = await launcher().boundingBox();
    expect(box).toMatchObject({ width: 56, height: 56, x: 1280 - 20 - 56, y: 800 - 20 - 56 });
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    const panel = await page.locator("frontdesk-widget .panel").boundingBox();
    expect(panel).toMatchObject({ width: 380, x: 1280 - 20 - 380 });
    expect(await page.getByRole("button", { name: "Where is my order?" }).isVisible()).toBe(true);
    expect(await page.locator("frontdesk-widget .head").evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(17, 34, 51)");
    stage.model.respondWith(modelAnswer(["Standard delivery takes three to five working days [1]."]));
    await page.getByRole("textbox", { name: "Message" }).fill("How long is delivery?");
    await page.getByRole("button", { name: "Send" }).click();
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    expect(await lastAnswerText()).toContain("three to five working days");
    await page.screenshot({ path: join(ARTIFACTS, "hostile-stylesheet.png") });
  });

  it("security: under a strict Content-Security-Policy (no inline script or style, scripts and requests only from the service) it loads, answers, and nothing is refused", async () => {
    const csp = `default-src 'none'; script-src ${stage.serviceUrl}; connect-src ${stage.serviceUrl}; img-src ${stage.serviceUrl}; style-src 'self'; base-uri 'none'`;
    await openPage(stage.hostPage("/strict-csp", { csp }));
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    stage.model.respondWith(modelAnswer(["We do not deliver on **Sundays** [1]."]));
    await page.getByRole("textbox", { name: "Message" }).fill("Do you deliver on Sundays?");
    await page.keyboard.press("Enter");
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    expect(await lastAnswerText()).toBe("We do not deliver on Sundays.");
    expect(await page.locator("frontdesk-widget .launcher").evaluate((element) => getComputedStyle(element).borderRadius)).toBe("50%");
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "strict-csp.png") });
  });

  it("happy: the visitor's anon id is kept in the host site's localStorage; after a reload and on another page the conversation continues; the page hears each answer", async () => {
    await openPage(stage.hostPage("/resume"));
    await poll(() => launcher().count()).toBe(1);
    await page.evaluate(() => {
      const record = window as unknown as { __messages: unknown[]; Frontdesk: { on(event: string, handler: (detail: unknown) => void): void } };
      record.__messages = [];
      record.Frontdesk.on("message", (detail) => record.__messages.push(detail));
    });
    await launcher().click();
    stage.model.respondWith(modelAnswer(["Express delivery arrives the next working day [1]."]));
    await page.getByRole("textbox", { name: "Message" }).fill("How fast is express delivery?");
    await page.keyboard.press("Enter");
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    // The page heard the complete answer (Frontdesk.on("message")).
    const heard = await page.evaluate(() => (window as unknown as { __messages: { role: string; content: string; citations: unknown[]; low_confidence: boolean }[] }).__messages);
    expect(heard).toEqual([{ role: "bot", content: "Express delivery arrives the next working day.", citations: expect.any(Array), low_confidence: false }]);
    const stored = await page.evaluate((agentId) => localStorage.getItem(`frontdesk:${agentId}:anon`), stage.tenant.agentId);
    expect(stored).toMatch(/^anon_\w+$/);
    await page.reload();
    await page.evaluate(() => window.Frontdesk && "open" in window.Frontdesk && window.Frontdesk.open());
    await poll(() => page.locator("frontdesk-widget .msg.from-visitor").allTextContents()).toEqual(["How fast is express delivery?"]);
    expect(await lastAnswerText()).toBe("Express delivery arrives the next working day.");

    // On another page of the site, the same conversation goes on.
    const conversations = async () =>
      (await stage.t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM conversations WHERE agent_id = $1`, [stage.tenant.agentId])).rows[0]!.n;
    const before = await conversations();
    await page.goto(stage.hostPage("/resume/another-page"));
    await launcher().click();
    await poll(() => page.locator("frontdesk-widget .msg.from-visitor").allTextContents()).toEqual(["How fast is express delivery?"]);
    expect(await lastAnswerText()).toBe("Express delivery arrives the next working day.");
    expect(await conversations()).toBe(before);
  });

  it('happy: data-consent="required": no request to the service and nothing stored until the visitor opens the widget', async () => {
    const serviceRequests: string[] = [];
    const url = stage.hostPage("/consent", { attributes: { consent: "required" } });
    context = await browser.newContext();
    page = await context.newPage();
    page.on("request", (request) => {
      if (request.url().startsWith(stage.serviceUrl)) serviceRequests.push(new URL(request.url()).pathname);
    });
    await page.goto(url);
    await poll(() => launcher().count()).toBe(1);
    await launcher().hover();
    await launcher().focus();
    expect(serviceRequests).toEqual(["/widget.js"]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    // An API call queued before the bundle loaded is replayed once it has.
    await page.evaluate(() => window.Frontdesk && "open" in window.Frontdesk && window.Frontdesk.open());
    await poll(() => dialog().isVisible()).toBe(true);
    await poll(() => serviceRequests.includes("/api/v1/widget/events")).toBe(true);
    // The bundle, the agent's proactive rules, the session, the conversation's state, the launcher.open telemetry, the branding's logo.
    const named = serviceRequests.filter((path) => !path.startsWith("/widget/assets/chunk-")).map((path) => path.replace(/app-\w+\.js$/, "app.js"));
    expect(named.sort()).toEqual([
      "/api/v1/widget/conversation",
      "/api/v1/widget/events",
      "/api/v1/widget/init",
      "/api/v1/widget/rules",
      "/widget.js",
      "/widget/assets/app.js",
      "/widget/logo.svg",
    ]);
    expect(await page.evaluate(() => localStorage.length)).toBe(1);
  });

  it("happy: a blocking script tag in <head>, data-position=\"left\", and calls a page queued before widget.js ran (window.Frontdesk = { q: [[\"open\"]] })", async () => {
    await openPage(stage.hostPage("/head-left", { inHead: true, attributes: { position: "left" }, before: 'window.Frontdesk = { q: [["open"]] };' }));
    await poll(() => dialog().isVisible()).toBe(true);
    expect(await page.evaluate(() => document.querySelector("frontdesk-widget")?.parentElement?.tagName)).toBe("BODY");
    // Opened by the page's own call: focus is in the message box.
    await poll(() => page.evaluate(() => document.querySelector("frontdesk-widget")?.shadowRoot?.activeElement?.getAttribute("aria-label"))).toBe("Message");
    expect(await launcher().boundingBox()).toMatchObject({ x: 20, y: 800 - 20 - 56 });
    expect(await page.locator("frontdesk-widget .panel").boundingBox()).toMatchObject({ x: 20, width: 380 });
    const globals = await page.evaluate(() => Object.keys(window.Frontdesk ?? {}).sort());
    expect(globals).toEqual(["applyCoupon", "close", "consent", "identify", "off", "on", "open", "reset", "send", "setContext", "toggle"]);
  });

  it("error: offline when the visitor opens it, the widget says so, and starts by itself once the network is back", async () => {
    await openPage(stage.hostPage("/offline"));
    await launcher().hover();
    await poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((entry) => entry.name.includes("/widget/assets/")))).toBe(true);
    await context.setOffline(true);
    await launcher().click();
    await poll(() => page.getByRole("alert").textContent()).toBe("We couldn't reach the assistant. Check your connection and try again.Try again");
    expect(await page.getByRole("dialog", { name: "Connecting…" }).isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "offline.png") });
    await context.setOffline(false);
    await poll(() => dialog().isVisible()).toBe(true);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Where is my order?" }).isVisible()).toBe(true);
  });

  it("error: a 429 on a question (the session's budget spent) tells the visitor to wait the Retry-After seconds; the message shows as not sent with Try again, goes again by itself after them, with the same Idempotency-Key, and is stored once", async () => {
    await openPage(stage.hostPage("/too-many"), undefined, (page) => page.clock.install());
    const started = page.waitForResponse((response) => response.url().endsWith("/api/v1/widget/init"));
    await launcher().click();
    const { data } = (await (await started).json()) as { data: { jwt: string; conversation_id: string } };
    await poll(() => dialog().isVisible()).toBe(true);
    // The session's budget (1,000 a minute on this stage) is spent, as by a script hammering the API with this token.
    const tokenKey = data.jwt.slice(data.jwt.lastIndexOf(".") + 1);
    for (let spent = 0; spent < 1000; spent += 1) await stage.t.services.limiter.consume("session", tokenKey);
    const asked: { message: string; key: string | undefined }[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/v1/widget/messages/stream")) asked.push({ message: (request.postDataJSON() as { message: string }).message, key: request.headers()["idempotency-key"] });
    });
    await page.getByRole("textbox", { name: "Message" }).fill("Do you ship abroad?");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("alert").textContent()).toMatch(/Please wait \d+ seconds and try again\./);
    const seconds = Number(/wait (\d+) seconds/.exec((await page.getByRole("alert").textContent()) ?? "")![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    // The message stays, marked as not sent (in words, inside the conversation's log), and no answer is waited for.
    const log = page.getByRole("log", { name: "Conversation" });
    const unsent = log.locator(".msg.from-visitor", { hasText: "Do you ship abroad?" });
    await poll(() => unsent.getAttribute("class")).toContain("unsent");
    expect(await unsent.getByText("Not sent").isVisible()).toBe(true);
    expect(await log.locator('[aria-busy="true"]').count()).toBe(0);
    expect(await unsent.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "rate-limited.png") });
    // Once the seconds have passed the widget sends it again by itself: the same key, refused again (the budget is still spent).
    expect(asked).toHaveLength(1);
    await page.clock.fastForward(seconds * 1000);
    await poll(() => asked.length).toBe(2);
    await poll(() => unsent.getAttribute("class")).toContain("unsent");
    // The service's minute runs on its own clock, not the page's: its budget is fresh for the session's next token, which the
    // widget takes five minutes before the first expires (55 minutes on). Sent again with it, the message is answered.
    const renewed = page.waitForResponse((response) => response.url().endsWith("/api/v1/widget/init"));
    await page.clock.fastForward("56:00");
    expect((await renewed).ok()).toBe(true);
    stage.model.respondWith(modelAnswer(["Yes, we ship to 30 countries [1]."]));
    // Sent again by the visitor (or by the widget, should its next try come first: the same message either way).
    const tryAgain = unsent.getByRole("button", { name: "Try again" });
    await poll(() => tryAgain.isVisible()).toBe(true);
    await tryAgain.click({ timeout: 2000 }).catch(() => undefined);
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    await poll(() => lastAnswerText()).toBe("Yes, we ship to 30 countries.");
    expect(new Set(asked.map((each) => `${each.message} ${each.key}`)).size).toBe(1);
    // Shown once, as sent; stored once.
    expect(await log.locator(".msg.from-visitor").count()).toBe(1);
    expect(await log.locator(".msg.unsent").count()).toBe(0);
    expect(await log.getByText("Not sent").count()).toBe(0);
    const [stored] = (await stage.t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1 AND role = 'visitor'`, [data.conversation_id])).rows;
    expect(stored?.n).toBe(1);
  });

  it("error: on a page whose origin the agent does not allow, the widget removes itself as the page loads, before any click, and logs one clear error for the site owner", async () => {
    await stage.t.app.inject({ method: "GET", url: "/livez" });
    const other = `http://localhost:${new URL(stage.site.origin).port}`;
    await openPage(`${other}/plain`);
    // The refusal of /rules (read once the page is idle) removes the launcher; nobody clicks.
    await poll(() => page.locator("frontdesk-widget").count()).toBe(0);
    const ours = consoleErrors.filter((text) => text.startsWith("Frontdesk:"));
    expect(ours).toEqual([
      `Frontdesk: this page's origin ${other} is not one of agent ${stage.tenant.agentId}'s allowed origins; add it with \`frontdesk admin agent update ${stage.tenant.agentId} --origin ${other}\` (with every --origin to keep).`,
    ]);
  });

  it("happy: the service's demo page embeds the widget, opens it, and init accepts the service's own origin", async () => {
    await openPage(`${stage.serviceUrl}/demo/${stage.tenant.agentId}`);
    await poll(() => dialog().isVisible()).toBe(true);
    // At 1280 px the page's text stays left of the open panel (it ran under it).
    const panel = await page.locator("frontdesk-widget .panel").boundingBox();
    const text = await page.locator("main").evaluate((main) => {
      const range = document.createRange();
      range.selectNodeContents(main);
      const box = range.getBoundingClientRect();
      return { left: box.left, right: box.right };
    });
    expect(panel!.x).toBeGreaterThan(800);
    expect(text.left).toBeGreaterThan(0);
    expect(text.right).toBeLessThan(panel!.x - 16);
    // Opened by data-open as the page loaded: the page keeps its focus.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("BODY");
    stage.model.respondWith(modelAnswer(["Orders over 50 euros ship for free [1]."]));
    await page.getByRole("button", { name: "Do you ship abroad?" }).click();
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    expect(await lastAnswerText()).toBe("Orders over 50 euros ship for free.");
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "demo-page.png") });
  });
});
