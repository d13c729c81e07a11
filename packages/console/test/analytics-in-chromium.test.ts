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
 * The Analytics screen in Chromium: a known week is written to the store (the server's analytics
 * test's, support/analytics-week.ts) and every figure the screen shows is the seeded one: conversations
 * per day (the bars and their table), the outcome shares, satisfaction, the median first operator
 * reply, the top questions and the funnel; another agent and another period change them; an
 * invalid period shows the server's words.
 */
describeNeeding("chromium-headless-shell")("the console's Analytics screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let page: Page;
  const agentB = "agt_console_analytics_b";

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const { workspaceId } = stage.tenant;
    await stage.t.services.db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'Returns desk', 'Bo')`, [agentB, workspaceId]);
    await seedAnalyticsWeek(stage.t.services.db, { a: stage.tenant, b: { workspaceId, agentId: agentB } }, "ca_");
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  /** The figure under a label, as shown. */
  const figure = (label: string) => page.locator(".figure").filter({ has: page.getByRole("term").getByText(label, { exact: true }) });
  const figureText = async (label: string) => `${await figure(label).locator(".figure-value").textContent()} | ${await figure(label).locator(".figure-detail").textContent()}`;
  const tableRows = (name: string) =>
    page
      .getByRole("table", { name })
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent?.trim() ?? "")));
  const funnel = () => page.locator(".funnel li").evaluateAll((items) => items.map((item) => `${item.querySelector(".funnel-label")?.textContent}: ${item.querySelector(".funnel-value")?.textContent}`));

  it("happy: the seeded week's figures, exactly; another agent and a narrower period change them; an empty period shows dashes; a request for a person arrives live; no serious axe violation at 1280 px, tablet width and in dark mode", async () => {
    const signedIn = await signedInOperator(
      browser,
      stage,
      { email: "dee@acme-bikes.test", name: "Dee", role: "agent" },
      `/console/analytics?agent=${stage.tenant.agentId}&from=2026-03-01&to=2026-03-07`,
    );
    page = signedIn.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-analytics-failure.png") });
      console.error("page errors:", signedIn.pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Analytics", level: 1 }).isVisible()).toBe(true);
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("8");
    expect(await page.getByLabel("Agent", { exact: true }).inputValue()).toBe(stage.tenant.agentId);
    expect(await page.getByLabel("From", { exact: true }).inputValue()).toBe("2026-03-01");
    expect(await page.getByLabel("To", { exact: true }).inputValue()).toBe("2026-03-07");

    // Conversations per day: a bar for each day with any, and the same figures in the table.
    const chart = page.getByRole("img", { name: "Conversations per day" });
    expect(await chart.isVisible()).toBe(true);
    expect(await chart.locator("rect.chart-bar title").allTextContents()).toEqual(["Mar 1: 2", "Mar 2: 1", "Mar 3: 2", "Mar 5: 2", "Mar 6: 1"]);
    await page.getByText("Show as a table").click();
    expect(await tableRows("Conversations per day")).toEqual([
      ["Mar 1, 2026", "2"],
      ["Mar 2, 2026", "1"],
      ["Mar 3, 2026", "2"],
      ["Mar 4, 2026", "0"],
      ["Mar 5, 2026", "2"],
      ["Mar 6, 2026", "1"],
      ["Mar 7, 2026", "0"],
    ]);
    expect(await page.locator(".chart-summary").textContent()).toBe("8 conversations over 7 days; the busiest day was Mar 1, 2026 with 2.");

    // The outcomes: 1, 2, 4 and 1 of 8; two good ratings and one bad; replies after 120, 600 and 30 s: the median is 2 minutes.
    expect(await figureText("Answered")).toBe("12.5% | 1 of 8");
    expect(await figureText("Answered with low confidence")).toBe("25% | 2 of 8");
    expect(await figureText("Handed to a human")).toBe("50% | 4 of 8");
    expect(await figureText("Unanswered")).toBe("12.5% | 1 of 8");
    expect(await figureText("Satisfaction")).toBe("66.7% | 2 good, 1 bad");
    expect(await figureText("Median first operator reply")).toBe("2 min | over 3 answered handovers");
    // Confirmed: a good rating and a 👍 without a person (2 of 8); merely ended: the answer rated down (1 of 8).
    expect(await figureText("Resolved, confirmed by the visitor")).toBe("25% | 2 of 8, without a person");
    expect(await figureText("Ended without a person, unconfirmed")).toBe("12.5% | 1 of 8");
    expect(await figure("Answers rated").locator(".figure-value").textContent()).toBe("2 up, 1 down");
    expect(await tableRows("Top questions")).toEqual([
      ["where is my order", "3"],
      ["do you ship abroad", "2"],
      ["hello", "1"],
      ["i want a human", "1"],
      ["thanks", "1"],
    ]);
    expect(await funnel()).toEqual(["Opened the launcher: 5", "Had a conversation: 7", "Left their details (leads): 2"]);
    await screenshotWhole(page, ".analytics", "console-analytics.png");
    expect(await seriousViolations(page)).toEqual([]);

    // Another agent: its one conversation of the week.
    await page.getByLabel("Agent", { exact: true }).selectOption({ label: "Returns desk" });
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("1");
    expect(new URL(page.url()).searchParams.get("agent")).toBe(agentB);
    expect(await figureText("Answered")).toBe("100% | 1 of 1");
    expect(await figureText("Satisfaction")).toBe("0% | 0 good, 1 bad");
    expect(await figureText("Median first operator reply")).toBe("— | over 0 answered handovers");
    expect(await tableRows("Top questions")).toEqual([["can i return a helmet", "1"]]);
    expect(await funnel()).toEqual(["Opened the launcher: 1", "Had a conversation: 1", "Left their details (leads): 1"]);

    // Back to the first agent, from March 3 to 5: every conversation handed over; an even sample of replies on March 3 alone.
    await page.getByLabel("Agent", { exact: true }).selectOption({ label: "Acme Assistant" });
    await page.getByLabel("From", { exact: true }).fill("2026-03-03");
    await page.getByLabel("To", { exact: true }).fill("2026-03-05");
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("4");
    expect(new URL(page.url()).searchParams.get("from")).toBe("2026-03-03");
    expect(await figureText("Handed to a human")).toBe("100% | 4 of 4");
    expect(await figureText("Median first operator reply")).toBe("2 min | over 3 answered handovers");
    await page.getByLabel("To", { exact: true }).fill("2026-03-03");
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("2");
    expect(await figureText("Median first operator reply")).toBe("6 min | over 2 answered handovers");

    // A period with nothing: zeros and dashes, no bars.
    await page.goto(`${stage.serviceUrl}/console/analytics?agent=${stage.tenant.agentId}&from=2025-01-01&to=2025-01-31`);
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("0");
    expect(await figureText("Answered")).toBe("— | 0 of 0");
    expect(await figureText("Satisfaction")).toBe("— | no ratings");
    expect(await page.locator("rect.chart-bar").count()).toBe(0);
    expect(await page.getByText("No questions in this period.").isVisible()).toBe(true);

    // The seeded week at tablet width, and in dark mode.
    await page.goto(`${stage.serviceUrl}/console/analytics?agent=${stage.tenant.agentId}&from=2026-03-01&to=2026-03-07`);
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("8");
    await page.setViewportSize({ width: 820, height: 1180 });
    await screenshotWhole(page, ".analytics", "console-analytics-tablet.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshotWhole(page, ".analytics", "console-analytics-dark.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // Live: the last 7 days hold nothing of this agent's; a visitor asks for a person now, and the figures follow without a reload.
    await page.getByRole("button", { name: "Last 7 days" }).click();
    await poll(() => page.getByRole("button", { name: "Last 7 days" }).getAttribute("aria-pressed")).toBe("true");
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("0");
    const init = await stage.t.app.inject({
      method: "POST",
      url: "/api/v1/widget/init",
      headers: { origin: stage.site.origin },
      payload: { agent_id: stage.tenant.agentId, page_url: stage.site.url("/") },
    });
    expect(init.statusCode, init.body).toBe(200);
    const asked = await stage.t.app.inject({
      method: "POST",
      url: "/api/v1/widget/request-human",
      headers: { authorization: `Bearer ${init.json().data.jwt}` },
      payload: {},
    });
    expect(asked.statusCode, asked.body).toBe(200);
    await poll(() => figure("Conversations").locator(".figure-value").textContent()).toBe("1");
    expect(await figureText("Handed to a human")).toBe("100% | 1 of 1");
    expect(signedIn.pageErrors).toEqual([]);
  }, 120_000);

  it("error: a period that ends before it starts shows the server's words, naming the parameter", async () => {
    await page.goto(`${stage.serviceUrl}/console/analytics?agent=${stage.tenant.agentId}&from=2026-03-08&to=2026-03-07`);
    await poll(() => page.getByRole("alert").textContent()).toBe("The request is invalid. from: must not be after `to`.");
    expect(await page.locator(".figure").count()).toBe(0);
  });
});
