import { join } from "node:path";
import type { Browser } from "playwright-core";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { registerAnswerTestWorkers } from "../../server/src/answer-tests/register-answer-test-workers.js";
import { notifyWorkspaceOperators } from "../../server/src/inbox/notifications.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

/**
 * The Answer tests screen in Chromium, on the real service and its worker: the server's 422 beside
 * the question, a test added for a phrase and one for "does not know", a CSV imported with a bad
 * row reported by number, a run started from the button and its results with their reasons and the
 * pass rate; in dark mode and narrow; an operator with the agent role only reads.
 */
describeNeeding("chromium-headless-shell")("the console's Answer tests screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let workers: { close(): Promise<void> };

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_ANSWER_TESTS_DEBOUNCE_SECONDS: "0" }), launchChromium()]);
    workers = await registerAnswerTestWorkers(stage.t.services, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await browser?.close();
    await workers?.close();
    await stage?.close();
  });

  it("happy: add tests (422 beside the field), import a CSV with a bad row, run them and read the results and pass rate; dark and narrow; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "tess@acme-bikes.test", name: "Tess", role: "admin" }, "/console/answer-tests");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-answer-tests-failure.png"), fullPage: true });
      console.error("console page errors:", pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Answer tests", level: 1 }).isVisible()).toBe(true);
    await poll(() => page.getByText("No test yet").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Run tests now" }).isDisabled()).toBe(true);

    // The server's 422 beside the question.
    const form = page.getByRole("form", { name: "Add a test" });
    await form.getByRole("radio", { name: "Contains a phrase" }).check();
    await form.getByLabel("Phrase", { exact: true }).fill("three to five working days");
    await form.getByRole("button", { name: "Add test" }).click();
    await poll(() => form.getByLabel("Question", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await form.textContent()).toContain("must not be empty");
    expect(await seriousViolations(page)).toEqual([]);

    await form.getByLabel("Question", { exact: true }).fill("How long does standard delivery take?");
    await form.getByRole("button", { name: "Add test" }).click();
    await poll(() => form.getByRole("status").textContent()).toBe("Test added.");
    await form.getByRole("radio", { name: "Says it does not know" }).check();
    await form.getByLabel("Question", { exact: true }).fill("Zorblat quixotic vexillology?");
    await form.getByRole("button", { name: "Add test" }).click();
    const tests = page.getByRole("list", { name: "Tests" });
    await poll(() => tests.getByRole("listitem").count()).toBe(2);

    // A CSV with a good row and a bad one.
    const importForm = page.getByRole("form", { name: "Import from CSV" });
    await importForm.getByLabel("CSV file").setInputFiles({
      name: "tests.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("question,expect_url,expect_text,expect_unsure\nDo you deliver on Sundays?,/help/delivery,,\nWarranty?,not a page,,\n"),
    });
    await importForm.getByRole("button", { name: "Import" }).click();
    await poll(() => importForm.getByRole("status").textContent()).toBe("1 test imported, 1 row refused.");
    expect(await importForm.getByRole("list", { name: "Rows refused" }).textContent()).toBe("Row 3: expect_url: must be an absolute http(s) URL or a path starting with /");
    await poll(() => tests.getByRole("listitem").count()).toBe(3);

    // Run them: the worker answers each question through the visitors' path.
    await page.getByRole("button", { name: "Run tests now" }).click();
    const results = page.getByRole("list", { name: "Results, failures first" });
    await poll(() => results.getByRole("listitem").count(), 60_000).toBe(3);
    const resultsText = await results.textContent();
    expect(resultsText).toContain("Zorblat quixotic vexillology?");
    expect(resultsText).toMatch(/(Passed|Failed): (contained|did not contain) 'three to five working days'/);
    expect(resultsText).toMatch(/(Passed|Failed): (cited|did not cite) \/help\/delivery/);
    await poll(() => tests.getByText(/^Not run yet$/).count()).toBe(0);
    const chart = page.getByRole("img", { name: "Pass rate over time" });
    await poll(() => chart.locator("rect").count()).toBe(1);
    expect(await page.getByText(/^1 finished run; the latest, .+, passed \d of 3/).count()).toBe(1);
    await page.getByText("Show as a table").click();
    expect(await page.getByRole("table").getByRole("row").count()).toBe(2);
    await screenshotWhole(page, ".answer-tests", "console-answer-tests.png");
    expect(await seriousViolations(page)).toEqual([]);

    await page.emulateMedia({ colorScheme: "dark" });
    await screenshotWhole(page, ".answer-tests", "console-answer-tests-dark.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 820, height: 1180 });
    await screenshotWhole(page, ".answer-tests", "console-answer-tests-narrow.png");
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);

    // The inbox's news of tests that fail now is read by opening the agent's answer tests.
    const [notified] = await notifyWorkspaceOperators(stage.t.services.db, {
      workspaceId: stage.tenant.workspaceId,
      kind: "answer_tests.regressed",
      conversationId: null,
      onlyAdmins: true,
      payload: { agent_id: stage.tenant.agentId, run_id: "anr_earlier", regressed: 1, tests: [] },
    });
    await page.reload();
    const readAt = async () =>
      (await stage.t.services.db.query<{ read_at: Date | null }>(`SELECT read_at FROM inbox_notifications WHERE id = $1`, [notified!.id])).rows[0]!.read_at;
    await poll(readAt).not.toBeNull();
    await context.close();

    // An operator with the agent role reads the tests and results, and has nothing to change them with.
    const reader = await signedInOperator(browser, stage, { email: "reed@acme-bikes.test", name: "Reed", role: "agent" }, "/console/answer-tests");
    await poll(() => reader.page.getByRole("list", { name: "Tests" }).getByRole("listitem").count()).toBe(3);
    expect(await reader.page.getByRole("button", { name: "Run tests now" }).count()).toBe(0);
    expect(await reader.page.getByRole("form", { name: "Add a test" }).count()).toBe(0);
    expect(await seriousViolations(reader.page)).toEqual([]);
    await reader.context.close();
  }, 180_000);
});
