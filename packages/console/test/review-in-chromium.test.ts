import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { seedAnalyticsWeek } from "../../server/test/support/analytics-week.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

/**
 * The review queue in Chromium (issue 31, part 4): the analytics' seeded week's bot answers, one
 * rated down with the pipeline's stored reason; the filters (kept in the URL) narrow the cards, the
 * reason reads in words with the passages read, and "Fix this answer" opens the curated answer's
 * dialog with the question filled in.
 */
describeNeeding("chromium-headless-shell")("the console's review queue, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let page: Page;
  const agentB = "agt_console_review_b";

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const { workspaceId } = stage.tenant;
    await stage.t.services.db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'Returns desk', 'Bo')`, [agentB, workspaceId]);
    await seedAnalyticsWeek(stage.t.services.db, { a: stage.tenant, b: { workspaceId, agentId: agentB } }, "cr_");
    const trace = {
      decided_by: "composition",
      sure: false,
      reason: "weak_match",
      unknown_words: ["parcel"],
      generator: "extractive",
      turned_unsure: false,
      fell_back: false,
      passages: [{ url: "https://shop.example.com/help/delivery", title: "Delivery times", heading: null, excerpt: "Standard delivery within the country takes three to five working days.", cited: false }],
    };
    await stage.t.services.db.query(`UPDATE messages SET answer_trace = $1::jsonb, rating_comment = 'It did not say where.' WHERE id = 'msg_cr_4'`, [JSON.stringify(trace)]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const cards = () => page.locator(".review-card");
  const questions = () => page.locator(".review-card .review-question").allTextContents();

  it("happy: every answer, then rated down, unsure and by agent; the reason in words; Fix this answer prefilled; axe clean in light and dark", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "rae@acme-bikes.test", name: "Rae", role: "admin" }, "/console/review");
    page = signedIn.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-review-failure.png") });
      console.error("page errors:", signedIn.pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Review answers", level: 1 }).isVisible()).toBe(true);
    await poll(() => cards().count()).toBe(6);
    expect(await page.getByRole("link", { name: "Review answers" }).getAttribute("aria-current")).toBe("page");

    await page.getByLabel("Rating", { exact: true }).selectOption({ label: "Rated down" });
    await poll(() => cards().count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("rating")).toBe("down");
    const card = cards().first();
    expect(await questions()).toEqual(["where is my   ORDER"]);
    expect(await card.locator(".review-answer").textContent()).toBe("Maybe?");
    expect(await card.locator(".review-badges li").allTextContents()).toEqual(["Rated down", "Unsure", "No citation"]);
    expect(await card.locator(".review-comment").textContent()).toContain("It did not say where.");
    await card.getByText("Why this answer").click();
    expect(await card.locator(".review-why li").allTextContents()).toEqual(
      expect.arrayContaining(["Unsure: the pages match the question's words only weakly.", "Words no page uses: parcel.", "Written by: extractive."]),
    );
    expect(await card.getByRole("link", { name: "Delivery times" }).getAttribute("href")).toBe("https://shop.example.com/help/delivery");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotWhole(page, ".review", "console-review-rated-down.png");

    // Fix this answer: the curated answer's dialog, the question it answered filled in.
    await card.getByRole("button", { name: "Fix this answer" }).click();
    const dialog = page.getByRole("dialog");
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel("Question", { exact: false }).first().inputValue()).toBe("where is my   ORDER");
    await page.keyboard.press("Escape");
    await poll(() => dialog.count()).toBe(0);

    // Flagged unsure, any rating: two answers; then one agent's, and a day with nothing.
    await page.getByLabel("Rating", { exact: true }).selectOption({ label: "Any" });
    await page.getByLabel("Flagged unsure").check();
    await poll(() => cards().count()).toBe(2);
    expect(await questions()).toEqual(["Do you ship abroad?", "where is my   ORDER"]);
    await page.getByLabel("Flagged unsure").uncheck();
    await page.getByLabel("Agent", { exact: true }).selectOption({ label: "Returns desk" });
    await poll(() => questions()).toEqual(["Can I return a helmet?"]);
    await page.getByLabel("From", { exact: true }).fill("2026-03-03");
    await poll(() => page.getByText("No answer matches these filters.").isVisible()).toBe(true);

    // Dark mode, every answer.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${stage.serviceUrl}/console/review`);
    await poll(() => cards().count()).toBe(6);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotWhole(page, ".review", "console-review-dark.png");
  });
});
