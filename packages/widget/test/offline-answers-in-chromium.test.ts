import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });

/**
 * A service with no model at all (the extractive answerer, the hashing embedder): what a visitor
 * sees for a question the site answers, one it only seems to touch, and one it knows nothing of.
 */
describeNeeding("chromium-headless-shell")("offline answers in the widget, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_LLM_PROVIDER: "extractive" }), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(stage.hostPage("/offline-answers"));
    await page.locator("frontdesk-widget .launcher").click();
    await page.getByRole("dialog", { name: "Ada" }).waitFor({ state: "visible", timeout: 20_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  /** Asks in the composer and waits for the reply to finish streaming: its text and its chips' titles and links. */
  async function ask(question: string): Promise<{ text: string; chips: { title: string; href: string | null }[] }> {
    const composer = page.getByRole("textbox", { name: "Message" });
    await poll(() => composer.isEnabled()).toBe(true);
    const asked = await page.locator("frontdesk-widget .msg.from-visitor").count();
    await composer.fill(question);
    await page.keyboard.press("Enter");
    // The reply is the message after the question, once it has finished streaming.
    await poll(() => page.locator("frontdesk-widget .msg.from-visitor").count()).toBe(asked + 1);
    const reply = page.locator("frontdesk-widget .msg").last();
    await poll(async () => (await reply.getAttribute("class"))?.includes("from-agent") && (await reply.getAttribute("aria-busy")) === null).toBe(true);
    const chips = reply.locator("a.chip");
    const titles = await chips.allTextContents();
    const links = await Promise.all(titles.map((_, index) => chips.nth(index).getAttribute("href")));
    return { text: (await reply.locator(".bubble").textContent()) ?? "", chips: titles.map((title, index) => ({ title, href: links[index]! })) };
  }

  it("happy: a question the site answers gets the page's own sentences, naming the page, the page it rests on cited first", async () => {
    const reply = await ask("How long does it take to fully charge the battery?");
    expect(reply.text).toMatch(/^From our E-bike battery care page: /);
    expect(reply.text).toContain("A full charge takes about four hours with the standard charger.");
    expect(reply.chips[0]).toEqual({ title: "E-bike battery care", href: "https://shop.example.com/help/battery" });
  });

  it("happy: a doubtful match offers the pages it may mean by name and links them; a question the site knows nothing of says nothing was found, with no link", async () => {
    const doubtful = await ask("Can I rent a bike for the weekend?");
    // Offered by name for the visitor to judge, not quoted as an answer; a person is still offered.
    expect(doubtful.text).toMatch(/^(?:This page may help|These pages may help): /);
    expect(doubtful.text).toContain("I'm not sure this answers your question. Would you like me to connect you with a person?");
    for (const chip of doubtful.chips) expect(doubtful.text).toContain(chip.title);
    expect(doubtful.chips.length).toBeGreaterThan(0);
    expect(doubtful.chips.length).toBeLessThanOrEqual(2);
    for (const chip of doubtful.chips) expect(chip.href).toMatch(/^https:\/\/shop\.example\.com\/help\//);
    await page.screenshot({ path: join(ARTIFACTS, "offline-doubtful.png") });

    const unknown = await ask("What is the capital of Peru?");
    expect(unknown.text).toContain("I couldn't find it on this site.");
    expect(unknown.chips).toEqual([]);
  });
});
