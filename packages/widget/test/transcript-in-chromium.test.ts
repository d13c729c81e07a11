import { join } from "node:path";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it, onTestFailed } from "vitest";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../../server/test/support/console-session.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";
import { seriousViolations } from "./support/widget-axe.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });

const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };

/**
 * The transcript by e-mail in a real browser: the visitor asks for a person (nobody online), an
 * operator closes the conversation from the console API, and the widget offers the transcript;
 * the service has no SMTP (the embedded default), so the mail waits in the outbox, addressed to
 * the lead's address and no other.
 */
describeNeeding("chromium-headless-shell")("the transcript by e-mail in the widget, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let operator: ConsoleSession;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    operator = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "agent", name: "Ana" });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  const log = () => page.getByRole("log", { name: "Conversation" });
  /** The texts of the log's messages, top to bottom (the greeting goes once there are messages, as in the handoff). */
  const shownTexts = () => log().locator(".msg .bubble").allTextContents();

  /** The widget open on `path`, a person asked for (nobody online: the e-mail form is offered). */
  async function waitingForAPerson(path: string, colorScheme: "light" | "dark" = "light", beforeOpening?: () => Promise<void>): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
    page = await context.newPage();
    await beforeOpening?.();
    await page.goto(stage.hostPage(path));
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "More options" }).click();
    await page.getByRole("menuitem", { name: "Talk to a person" }).click();
    await poll(() => page.getByRole("textbox", { name: "Your e-mail" }).isVisible()).toBe(true);
    return page;
  }

  /** Ana closes the visitor's conversation (the only one awaiting a person). */
  async function operatorCloses(): Promise<string> {
    const { rows } = await stage.t.services.db.query<{ id: string }>(`SELECT id FROM conversations WHERE agent_id = $1 AND status = 'awaiting_human'`, [stage.tenant.agentId]);
    expect(rows).toHaveLength(1);
    const closed = await fetch(`${stage.serviceUrl}${CONSOLE}/conversations/${rows[0]!.id}/close`, { method: "POST", headers: operator.headers });
    expect(closed.status).toBe(200);
    await poll(() => log().getByText("Conversation closed").count()).toBe(1);
    return rows[0]!.id;
  }

  const mailsOf = async (conversationId: string) =>
    (await stage.t.services.db.query<{ to_address: string; status: string; kind: string }>(`SELECT recipient AS to_address, status, kind FROM mail_messages WHERE conversation_id = $1`, [conversationId])).rows;

  it("happy: closed by an operator, the transcript is offered with an address field; a bad address is refused with a word; a good one is left as the lead and the transcript waits for e-mail set-up", async () => {
    // The catch-up the widget asks for once subscribed is held until the close came live: "Conversation closed"
    // arrives before the older "Waiting for a person to join" that the catch-up brings, and must stay below it.
    let holdCatchUp!: (route: Route) => void;
    const catchUp = new Promise<Route>((resolve) => (holdCatchUp = resolve));
    await waitingForAPerson("/transcript-no-lead", "light", () => page.route(/\/api\/v1\/widget\/conversation\/messages\?/, holdCatchUp, { times: 1 }));
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "transcript-failure.png") });
    });
    const held = await catchUp;
    const conversationId = await operatorCloses();
    expect(await shownTexts()).toEqual(["Conversation closed"]);
    await held.continue();
    await poll(shownTexts).toEqual(["Waiting for a person to join", "Conversation closed"]);
    const offer = log().getByRole("button", { name: "Email me the transcript" });
    await poll(() => offer.isVisible()).toBe(true);
    expect(await offer.isDisabled()).toBe(true);
    const field = log().getByRole("textbox", { name: "Your e-mail" });
    await page.screenshot({ path: join(ARTIFACTS, "transcript-offered.png"), clip: WIDGET_CLIP });
    expect(await seriousViolations(page)).toEqual([]);

    // A malformed address: the service's 422, said in words; nothing is sent.
    await field.fill("not-an-address");
    await field.evaluate((input) => input.removeAttribute("type"));
    await offer.click();
    await poll(() => log().getByText("Please check the e-mail address.").isVisible()).toBe(true);
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await mailsOf(conversationId)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "transcript-invalid.png"), clip: WIDGET_CLIP });

    // By keyboard: Enter in the field sends it.
    await field.fill("rider@example.org");
    await field.press("Enter");
    await poll(() => log().getByText("We'll e-mail it to you.").isVisible()).toBe(true);
    expect(await log().getByRole("textbox", { name: "Your e-mail" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "transcript-waiting.png"), clip: WIDGET_CLIP });
    // Left as the lead first, then the transcript: no SMTP here, so it waits, addressed to the lead.
    const { rows: leads } = await stage.t.services.db.query<{ email: string }>(`SELECT email FROM leads WHERE conversation_id = $1`, [conversationId]);
    expect(leads).toEqual([{ email: "rider@example.org" }]);
    expect(await mailsOf(conversationId)).toEqual([{ to_address: "rider@example.org", status: "waiting", kind: "transcript" }]);
  });

  it("happy: a visitor who left an e-mail gets one button; a 429 is said in words, the next ask is queued (dark scheme)", async () => {
    await waitingForAPerson("/transcript-with-lead", "dark");
    await page.getByRole("textbox", { name: "Your e-mail" }).fill("lead@example.org");
    await page.getByRole("button", { name: "Send e-mail" }).click();
    await poll(() => log().getByText("Thanks! We'll get back to you by e-mail.").isVisible()).toBe(true);
    const conversationId = await operatorCloses();
    expect(await shownTexts()).toEqual(["Waiting for a person to join", "Conversation closed"]);
    const offer = log().getByRole("button", { name: "Email me the transcript" });
    await poll(() => offer.isEnabled()).toBe(true);
    expect(await log().getByRole("textbox", { name: "Your e-mail" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "transcript-one-button-dark.png"), clip: WIDGET_CLIP });

    // The service's 429 (three an hour per conversation), as it answers it.
    await page.route("**/api/v1/widget/conversation/transcript", (route) =>
      route.fulfill({ status: 429, headers: { "content-type": "application/json", "retry-after": "3000" }, body: JSON.stringify({ error: { code: "rate_limited", message: "Too many requests." } }) }),
    );
    await offer.click();
    await poll(() => log().getByText("Too many requests. Try again later.").isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "transcript-limit-dark.png"), clip: WIDGET_CLIP });
    await page.unroute("**/api/v1/widget/conversation/transcript");

    const asked = page.waitForRequest((request) => request.url().endsWith("/conversation/transcript"));
    await offer.click();
    expect((await asked).postDataJSON()).toEqual({});
    await poll(() => log().getByText("We'll e-mail it to you.").isVisible()).toBe(true);
    expect(await mailsOf(conversationId)).toEqual([{ to_address: "lead@example.org", status: "waiting", kind: "transcript" }]);
  });
});
