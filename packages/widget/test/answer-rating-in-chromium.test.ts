import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { seriousViolations } from "./support/widget-axe.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });
const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };

/**
 * 👍/👎 under each bot answer (issue 31, part 3): real toggle buttons named in the widget's language,
 * pressed by mouse or keyboard, the rating stored on the answer and changeable, axe clean.
 */
describeNeeding("chromium-headless-shell")("rating an answer in the widget, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_LLM_PROVIDER: "extractive" }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  async function openAndAsk(path: string, question: string, options: { language?: string; dark?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: options.dark ? "dark" : "light" });
    const page = await context.newPage();
    await page.goto(stage.hostPage(path, options.language ? { attributes: { language: options.language } } : {}));
    await page.locator("frontdesk-widget .launcher").click();
    const composer = page.locator("frontdesk-widget textarea");
    await poll(() => composer.isEnabled()).toBe(true);
    await composer.fill(question);
    await page.keyboard.press("Enter");
    const reply = page.locator("frontdesk-widget .msg.from-agent").last();
    await poll(async () => (await reply.locator(".fd-rate").count()) === 2).toBe(true);
    return page;
  }
  const ratingOf = async (messageId: string) =>
    (await stage.t.services.db.query<{ rating: string | null }>(`SELECT rating FROM messages WHERE id = $1`, [messageId])).rows[0]?.rating ?? null;
  /** The answer just shown: each test's visitor asks last, one test at a time. */
  const lastBotMessageId = async () =>
    (
      await stage.t.services.db.query<{ id: string }>(
        `SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.agent_id = $1 AND m.role = 'bot' ORDER BY m.created_at DESC LIMIT 1`,
        [stage.tenant.agentId],
      )
    ).rows[0]!.id;

  it("happy: a click presses 👍 (aria-pressed) and stores it; 👎 replaces it; the keyboard does the same; axe finds nothing serious", async () => {
    const page = await openAndAsk("/rate-answer", "How long does it take to fully charge the battery?");
    const up = page.getByRole("button", { name: "Helpful", exact: true });
    const down = page.getByRole("button", { name: "Not helpful", exact: true });
    expect(await up.getAttribute("aria-pressed")).toBe("false");
    expect(await down.getAttribute("aria-pressed")).toBe("false");
    const messageId = await lastBotMessageId();

    await up.click();
    await poll(() => up.getAttribute("aria-pressed")).toBe("true");
    await poll(() => ratingOf(messageId)).toBe("up");
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "answer-rated-up.png"), clip: WIDGET_CLIP });

    await down.click();
    await poll(() => down.getAttribute("aria-pressed")).toBe("true");
    expect(await up.getAttribute("aria-pressed")).toBe("false");
    await poll(() => ratingOf(messageId)).toBe("down");

    // The keyboard: focus 👍 and press Space, then Tab to 👎 and press Enter.
    await up.focus();
    await page.keyboard.press("Space");
    await poll(() => ratingOf(messageId)).toBe("up");
    expect(await up.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("Tab");
    await poll(() => down.evaluate((element) => element.getRootNode() instanceof ShadowRoot && (element.getRootNode() as ShadowRoot).activeElement === element)).toBe(true);
    await page.keyboard.press("Enter");
    await poll(() => ratingOf(messageId)).toBe("down");
    expect(await down.getAttribute("aria-pressed")).toBe("true");
    await page.context().close();
  });

  it("happy: the buttons are named in the widget's language, in the dark scheme too, and axe finds nothing serious there", async () => {
    const page = await openAndAsk("/rate-answer-de", "Wie lange dauert eine volle Ladung des Akkus?", { language: "de", dark: true });
    const up = page.getByRole("button", { name: "Hilfreich", exact: true });
    await expect(up.count()).resolves.toBe(1);
    await expect(page.getByRole("button", { name: "Nicht hilfreich", exact: true }).count()).resolves.toBe(1);
    await up.click();
    await poll(() => up.getAttribute("aria-pressed")).toBe("true");
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "answer-rated-dark-de.png"), clip: WIDGET_CLIP });
    await page.context().close();
  });

  it("error: a rating the service refuses is undone and the visitor is told", async () => {
    const page = await openAndAsk("/rate-answer-refused", "Do you deliver on Sundays?");
    // The answer is gone from the store since it was shown: the service answers 404 message_not_found.
    await stage.t.services.db.query(`DELETE FROM messages WHERE id = $1`, [await lastBotMessageId()]);
    const up = page.getByRole("button", { name: "Helpful", exact: true });
    await up.click();
    await poll(() => up.getAttribute("aria-pressed")).toBe("false");
    await poll(() => page.locator("frontdesk-widget .notice").count()).toBeGreaterThan(0);
    await page.context().close();
  });
});
