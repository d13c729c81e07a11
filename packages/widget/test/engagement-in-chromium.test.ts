import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, modelAnswer, startWidgetStage, type HostPageOptions, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows or the service stored: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });

const TALL_PAGE = '<div id="filler" style="height:3000px">Long read</div>';
const PRODUCT_PAGE = `<meta name="description" content="The Acme e-bike: 80 km of range, light frame.">
<link rel="canonical" href="/products/acme-e-bike">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"BreadcrumbList"},{"@type":"Product","name":"Acme E-Bike","offers":{"@type":"Offer","price":"1999.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}]}</script>`;

const RULES = [
  { id: "deep-read", trigger: { type: "scroll", percent: 50, url: "/article*" }, action: { type: "message", text: "Enjoying the read? Ask me anything about our bikes." } },
  { id: "linger", trigger: { type: "time_on_page", seconds: 20, url: "/linger" }, action: { type: "open" } },
  { id: "leaving", trigger: { type: "exit_intent", url: "/leaving" }, action: { type: "message", text: "Before you go: free returns for 30 days." } },
  { id: "spring-sale", trigger: { type: "page", url: "/sale" }, action: { type: "cta", text: "Spring sale: 20% off today.", label: "Get 20% off", url: "", coupon: "SPRING-20" } },
];

describeNeeding("chromium-headless-shell")("proactive rules, coupons, satisfaction, page context and the JavaScript API in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];

  const rows = async <T>(sql: string, values: unknown[] = []) => (await stage.t.services.db.query<T>(sql, values)).rows;
  const eventsOf = (event: string) =>
    rows<{ rule_id: string | null; conversation_id: string; metadata: Record<string, unknown> }>(`SELECT rule_id, conversation_id, metadata FROM events WHERE agent_id = $1 AND event = $2 ORDER BY id`, [stage.tenant.agentId, event]);

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const thanks = stage.hostPage("/thanks");
    const rules = RULES.map((rule) => (rule.action.type === "cta" ? { ...rule, action: { ...rule.action, url: thanks } } : rule));
    await runAdminCommand(adminOf(stage.t.services), { command: "agent.update", agentId: stage.tenant.agentId, vertical: "ecommerce", behaviorRules: rules as never });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  async function openPage(path: string, options: HostPageOptions = {}, install?: (page: Page) => Promise<void>): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    consoleErrors = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await install?.(page);
    await page.goto(stage.hostPage(path, options));
    return page;
  }

  const launcher = () => page.locator("frontdesk-widget .launcher");
  const dialog = () => page.getByRole("dialog", { name: "Ada" });
  const bubble = () => page.locator("frontdesk-widget .fd-bubble");
  const api = <T>(call: string) => page.evaluate(`(${call})(window.Frontdesk)`) as Promise<T>;

  it("happy: a scroll rule shows its bubble once the visitor has read half the page and posts scroll.trigger with its rule_id; dismissing it posts rule.dismiss", async () => {
    await openPage("/article", { body: TALL_PAGE });
    await poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/api/v1/widget/rules")))).toBe(true);
    expect(await bubble().count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight * 0.2));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await bubble().count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await poll(() => bubble().textContent()).toBe("Enjoying the read? Ask me anything about our bikes.");
    await poll(() => eventsOf("scroll.trigger")).toEqual([{ rule_id: "deep-read", conversation_id: expect.stringMatching(/^cnv_|^\w+/), metadata: { percent: 50 } }]);
    await page.screenshot({ path: join(ARTIFACTS, "rule-bubble.png") });

    await page.getByRole("button", { name: "Dismiss" }).click();
    await poll(() => bubble().count()).toBe(0);
    await poll(() => eventsOf("rule.dismiss")).toEqual([expect.objectContaining({ rule_id: "deep-read" })]);
    // The rule does not fire again on this page, and the launcher still opens the chat (launcher.open, no rule).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    await poll(() => eventsOf("launcher.open")).toContainEqual(expect.objectContaining({ rule_id: null }));
    expect((await eventsOf("scroll.trigger")).length).toBe(1);
    // A page the rule's pattern does not name never fires it.
    await context.close();
    await openPage("/blog", { body: TALL_PAGE });
    await poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/api/v1/widget/rules")))).toBe(true);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await bubble().count()).toBe(0);
    expect((await eventsOf("scroll.trigger")).length).toBe(1);
  });

  it("happy: a time-on-page rule opens the widget after its seconds (launcher.open with its rule_id); an exit-intent rule shows its bubble when the pointer leaves through the top", async () => {
    // Playwright's clock replaces `performance` too: the rules' request is watched from outside the page.
    let rulesRequested = false;
    const rulesRead = () => rulesRequested;
    await openPage("/linger", {}, async (page) => {
      await page.clock.install();
      page.on("requestfinished", (request) => {
        if (request.url().endsWith("/api/v1/widget/rules")) rulesRequested = true;
      });
    });
    await poll(rulesRead).toBe(true);
    await page.clock.fastForward(10_000);
    expect(await dialog().count()).toBe(0);
    await page.clock.fastForward(11_000);
    await poll(() => dialog().isVisible()).toBe(true);
    await poll(() => eventsOf("launcher.open")).toContainEqual(expect.objectContaining({ rule_id: "linger" }));
    await context.close();

    rulesRequested = false;
    await openPage("/leaving", {}, async (page) => {
      page.on("requestfinished", (request) => {
        if (request.url().endsWith("/api/v1/widget/rules")) rulesRequested = true;
      });
    });
    await poll(rulesRead).toBe(true);
    await page.mouse.move(640, 400);
    await page.mouse.move(640, 10);
    expect(await bubble().count()).toBe(0);
    // The pointer leaves the window through its top edge (towards the tabs and the address bar).
    await page.evaluate(() => document.documentElement.dispatchEvent(new MouseEvent("mouseout", { bubbles: true, clientX: 640, clientY: -1, relatedTarget: null })));
    await poll(() => bubble().textContent()).toBe("Before you go: free returns for 30 days.");
  });

  it("happy: on an e-commerce agent, a page rule's call to action posts cta.click, applies its coupon to the conversation, and takes the visitor to its link", async () => {
    await openPage("/sale");
    await poll(() => page.getByRole("button", { name: "Get 20% off" }).isVisible()).toBe(true);
    expect(await bubble().locator(".fd-bubble-text").textContent()).toBe("Spring sale: 20% off today.");
    await page.screenshot({ path: join(ARTIFACTS, "rule-cta.png") });
    await page.getByRole("button", { name: "Get 20% off" }).click();
    await page.waitForURL(/\/thanks$/);
    const clicks = await eventsOf("cta.click");
    expect(clicks).toEqual([expect.objectContaining({ rule_id: "spring-sale" })]);
    expect(await rows(`SELECT coupon_code FROM conversations WHERE id = $1`, [clicks[0]!.conversation_id])).toEqual([{ coupon_code: "SPRING-20" }]);
  });

  it("happy: Frontdesk.applyCoupon(code) applies it through /coupon/apply and shows it to the visitor; a malformed code is refused in the console", async () => {
    await openPage("/coupon");
    await api("(f) => f.applyCoupon('WELCOME-10')");
    await poll(() => bubble().textContent()).toBe("Coupon WELCOME-10 is applied to your order.");
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    expect(await page.locator("frontdesk-widget .fd-coupon").textContent()).toBe("Coupon WELCOME-10 is applied to your order.");
    await page.screenshot({ path: join(ARTIFACTS, "coupon.png") });
    const visitor = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith(":anon"))?.[1]);
    expect(await rows(`SELECT c.coupon_code FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE v.anon_id = $1`, [visitor])).toEqual([{ coupon_code: "WELCOME-10" }]);
    await api("(f) => f.applyCoupon('no spaces allowed')");
    await poll(() => consoleErrors).toContain('Frontdesk: applyCoupon("no spaces allowed"): a coupon code is 3 to 32 letters, digits and dashes.');

    // After a reload the same conversation shows its applied coupon again; a new conversation has none.
    await page.reload();
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    await poll(() => page.locator("frontdesk-widget .fd-coupon").textContent()).toBe("Coupon WELCOME-10 is applied to your order.");
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("menuitem", { name: "New conversation" }).click();
    await poll(() => page.locator("frontdesk-widget .fd-coupon").count()).toBe(0);
    expect(await rows(`SELECT count(*)::int AS n FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE v.anon_id = $1`, [visitor])).toEqual([{ n: 2 }]);
  });

  it("happy: after an answer and a minute of silence the visitor is asked how it went, once per conversation; the rating and comment are stored", async () => {
    await openPage("/csat", {}, (page) => page.clock.install());
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    stage.model.respondWith(modelAnswer(["Express delivery arrives the next working day [1]."]));
    await page.getByRole("textbox", { name: "Message" }).fill("How fast is express delivery?");
    await page.keyboard.press("Enter");
    await poll(() => page.locator("frontdesk-widget .msg.from-agent .bubble").last().textContent()).toBe("Express delivery arrives the next working day.");
    await poll(() => page.locator("frontdesk-widget .msg.from-agent").last().getAttribute("aria-busy")).toBe(null);
    await page.clock.fastForward(30_000);
    expect(await page.locator("frontdesk-widget .fd-csat").count()).toBe(0);
    await page.clock.fastForward(31_000);
    await poll(() => page.getByRole("form", { name: "Did this conversation help you?" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Yes, it helped" }).click();
    await page.getByRole("textbox", { name: "Anything to add? (optional)" }).fill("Quick and clear.");
    await page.screenshot({ path: join(ARTIFACTS, "satisfaction.png") });
    await page.getByRole("button", { name: "Send feedback" }).click();
    await poll(() => page.locator("frontdesk-widget .fd-csat-thanks").textContent()).toBe("Thanks for your feedback!");
    const visitor = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith(":anon"))?.[1]);
    expect(
      await rows(`SELECT c.satisfaction_rating, c.satisfaction_comment FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE v.anon_id = $1`, [visitor]),
    ).toEqual([{ satisfaction_rating: "good", satisfaction_comment: "Quick and clear." }]);

    // The same conversation after a reload: another answer and another minute, and no second prompt.
    await page.reload();
    await launcher().click();
    await poll(() => dialog().isVisible()).toBe(true);
    stage.model.respondWith(modelAnswer(["Orders over 50 euros ship for free [1]."]));
    await page.getByRole("textbox", { name: "Message" }).fill("Is shipping free?");
    await page.keyboard.press("Enter");
    await poll(() => page.locator("frontdesk-widget .msg.from-agent .bubble").last().textContent()).toBe("Orders over 50 euros ship for free.");
    await poll(() => page.locator("frontdesk-widget .msg.from-agent").last().getAttribute("aria-busy")).toBe(null);
    await page.clock.fastForward(61_000);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await page.locator("frontdesk-widget .fd-csat").count()).toBe(0);
  });

  it("happy: the JavaScript API: calls queued before the bundle loaded are replayed; open, close, toggle, send, setContext, consent, reset and the ready, open, close, message and error events", async () => {
    await openPage("/api", {
      attributes: { consent: "required" },
      body: PRODUCT_PAGE,
      before: 'window.Frontdesk = { q: [["setContext", { plan: "pro", cart_total: 42 }]] };',
    });
    await poll(() => launcher().count()).toBe(1);
    await page.evaluate(() => {
      const record = window as unknown as { __events: [string, unknown][] };
      record.__events = [];
      const frontdesk = window.Frontdesk as unknown as { on(event: string, handler: (detail: unknown) => void): void };
      for (const name of ["ready", "open", "close", "message", "handoff", "error"]) frontdesk.on(name, (detail) => record.__events.push([name, detail ?? null]));
    });
    const events = () => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
    // Consent required: nothing loads until consent() — then the bundle loads and reads the rules.
    expect(await page.evaluate(() => performance.getEntriesByType("resource").filter((entry) => entry.name.includes("/widget/assets/")).length)).toBe(0);
    await api("(f) => f.consent()");
    await poll(events).toEqual([["ready", null]]);
    await poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/api/v1/widget/rules")))).toBe(true);

    await api("(f) => f.open()");
    await poll(() => dialog().isVisible()).toBe(true);
    await api("(f) => f.close()");
    await poll(() => dialog().count()).toBe(0);
    await api("(f) => f.toggle()");
    await poll(() => dialog().isVisible()).toBe(true);
    await api("(f) => f.toggle()");
    await poll(() => dialog().count()).toBe(0);
    expect(await events()).toEqual([["ready", null], ["open", null], ["close", null], ["open", null], ["close", null]]);

    // send(text) opens the widget, asks, and the complete answer is a message event; the page context went with it.
    stage.model.respondWith(modelAnswer(["The Acme E-Bike is in stock [1]."]));
    await api("(f) => f.setContext({ cart_total: 57, coupon_seen: true })");
    await api("(f) => f.send('Is the Acme E-Bike in stock?')");
    await poll(() => events().then((list) => list.filter(([name]) => name === "message"))).toEqual([
      ["message", { role: "bot", content: "The Acme E-Bike is in stock.", citations: expect.any(Array), low_confidence: false }],
    ]);
    expect(await dialog().isVisible()).toBe(true);
    const anonId = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith(":anon"))?.[1]);
    const [stored] = await rows<{ id: string; visitor_id: string; last_page_context: Record<string, unknown> }>(
      `SELECT c.id, c.visitor_id, c.last_page_context FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE v.anon_id = $1`,
      [anonId],
    );
    expect(stored!.last_page_context).toEqual({
      title: "Acme Bikes",
      description: "The Acme e-bike: 80 km of range, light frame.",
      canonical_url: `${stage.site.origin}/products/acme-e-bike`,
      product: { name: "Acme E-Bike", price: "1999.00", currency: "EUR", availability: "InStock" },
      plan: "pro",
      cart_total: 57,
      coupon_seen: true,
    });

    // error: a setContext that is not an object is refused with an error event.
    await api("(f) => f.setContext('not an object')");
    await poll(() => events().then((list) => list.filter(([name]) => name === "error"))).toEqual([["error", { code: "invalid_context" }]]);

    // reset() forgets the visitor: the widget closes, storage is empty, the next open is a new visitor.
    await api("(f) => f.reset()");
    await poll(() => dialog().count()).toBe(0);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("frontdesk:")))).toEqual([]);
    await api("(f) => f.open()");
    await poll(() => dialog().isVisible()).toBe(true);
    // Wait for the new anon id to be written (until then the key is absent, which is also "not the old id").
    const storedAnon = () => page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith(":anon"))?.[1] ?? null);
    await poll(storedAnon).toEqual(expect.any(String));
    const newAnon = await storedAnon();
    expect(newAnon).not.toBe(anonId);
    expect(await page.locator("frontdesk-widget .msg").count()).toBe(1); // the greeting only
    // The new anon id is kept before init answers: the visitor's row comes with init.
    await poll(async () => (await rows<{ id: string }>(`SELECT v.id FROM visitors v WHERE v.anon_id = $1`, [newAnon])).length).toBe(1);
    const [fresh] = await rows<{ id: string }>(`SELECT v.id FROM visitors v WHERE v.anon_id = $1`, [newAnon]);
    expect(fresh!.id).not.toBe(stored!.visitor_id);
    await page.screenshot({ path: join(ARTIFACTS, "api-after-reset.png") });
  });

  it("error: when init refuses the page's origin, the widget stops its rules and never calls init again, whatever the rules' time or the visitor's scrolling", async () => {
    const admin = adminOf(stage.t.services);
    const { id: agentId } = (await runAdminCommand(admin, {
      command: "agent.create",
      workspaceId: stage.tenant.workspaceId,
      name: "Acme Outlet",
      origins: [stage.site.origin],
      vertical: "general",
      draft: false,
    })) as { id: string };
    const rules = [
      { id: "soon", trigger: { type: "time_on_page", seconds: 60 }, action: { type: "open" } },
      { id: "later", trigger: { type: "time_on_page", seconds: 120 }, action: { type: "message", text: "Still looking?" } },
      { id: "deep-read", trigger: { type: "scroll", percent: 50 }, action: { type: "message", text: "Enjoying the read?" } },
    ];
    await runAdminCommand(admin, { command: "agent.update", agentId, behaviorRules: rules as never });
    // Each request the page makes to the service, in the order it makes them.
    const requests: string[] = [];
    let rulesRequested = false;
    await openPage("/outlet", { attributes: { "agent-id": agentId }, body: TALL_PAGE }, async (page) => {
      await page.clock.install();
      page.on("request", (request) => requests.push(new URL(request.url()).pathname));
      page.on("requestfinished", (request) => {
        if (request.url().endsWith("/api/v1/widget/rules")) rulesRequested = true;
      });
    });
    await poll(() => rulesRequested).toBe(true);
    // The site owner removes this site's origin: init refuses it from now on (once the service's two-second agent cache has let go).
    await runAdminCommand(admin, { command: "agent.update", agentId, origins: ["https://elsewhere.example.com"] });
    const initStatus = async () =>
      (
        await fetch(`${stage.serviceUrl}/api/v1/widget/init`, {
          method: "POST",
          headers: { origin: stage.site.origin, "content-type": "application/json" },
          body: JSON.stringify({ agent_id: agentId, page_url: stage.site.url("/outlet") }),
        })
      ).status;
    await poll(initStatus).toBe(403);

    // The first rule's time passes: it opens the widget, init is refused, the widget goes.
    await page.clock.fastForward(61_000);
    await poll(() => page.locator("frontdesk-widget").count()).toBe(0);
    expect(requests.filter((path) => path.endsWith("/init"))).toHaveLength(1);
    // The second rule's time passes and the visitor reads on (the scroll rule would post scroll.trigger, which starts a session).
    await page.clock.fastForward(60_000);
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          // Resolved a task after the scroll event: whatever the rules' listeners started has run.
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          addEventListener("scroll", () => channel.port2.postMessage(null), { once: true });
          window.scrollTo(0, document.documentElement.scrollHeight);
        }),
    );
    // A request made after anything the rules would have started: it arrives after any init they would have sent.
    const sentinel = `${stage.serviceUrl}/livez`;
    await page.evaluate((url) => fetch(url, { mode: "no-cors" }).then(() => undefined), sentinel);
    await poll(() => requests.includes("/livez")).toBe(true);
    expect(requests.filter((path) => path.endsWith("/init"))).toHaveLength(1);
    expect(consoleErrors.filter((text) => text.startsWith("Frontdesk:"))).toHaveLength(1);
  });
});
