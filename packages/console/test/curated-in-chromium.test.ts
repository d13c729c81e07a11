import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { CONSOLE, createSignedInOperator } from "../../server/test/support/console-session.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { modelAnswer, startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

const DOG_ANSWER = "Dogs are welcome on test rides if they stay on a lead.";
const WEDDING_ANSWER = "Yes: our cargo bikes can be hired for weddings, with ribbons on request.";

/**
 * Curated answers in Chromium, on the real service: a visitor's questions get low-confidence
 * answers in the widget; the admin fixes one from the conversation's transcript ("Fix this
 * answer": the dialog prefilled with the visitor's question, Escape, the server's 422 beside the
 * fields, saved); the visitor asks it again in other words and the widget shows the curated answer,
 * which the console shows with its Curated badge; the Curated answers screen lists the knowledge
 * gaps ("Answer it" answers one, "Add a source" opens the Knowledge form) and the curated answers,
 * live when another console writes one; delete after confirming; an operator with the agent role
 * is refused by the server, in the dialog.
 */
describeNeeding("chromium-headless-shell")("curated answers in the console, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let page: Page;
  let visitorPage: Page;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const widgetLog = () => visitorPage.getByRole("log", { name: "Conversation" });
  /** The visitor asks in the widget and waits for the reply holding `expected`. */
  const ask = async (question: string, expected: string) => {
    await visitorPage.getByRole("textbox", { name: "Message" }).fill(question);
    await visitorPage.keyboard.press("Enter");
    await poll(() => widgetLog().textContent()).toContain(expected);
    await poll(() => widgetLog().locator('[aria-busy="true"]').count()).toBe(0);
  };

  it("happy: 'Fix this answer' on a bot reply (prefilled, Escape, 422 beside the field, saved); the visitor's reworded question gets the curated answer, shown with the Curated badge; knowledge gaps with 'Answer it' and 'Add a source'; the list live from another console; delete; no serious axe violation", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "cora@acme-bikes.test", name: "Cora", role: "admin" }, "/console/inbox");
    page = signedIn.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-curated-failure.png"), fullPage: true });
      console.error("console page errors:", signedIn.pageErrors, "at", page.url());
    });

    // A visitor asks two questions the knowledge does not answer: two low-confidence replies.
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    visitorPage = await visitorContext.newPage();
    await visitorPage.goto(stage.hostPage("/rides"));
    await visitorPage.locator("frontdesk-widget .launcher").click();
    await poll(() => visitorPage.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    stage.model.respondWith(modelAnswer(["[0] I could not find anything about weddings."]));
    await ask("Do you rent cargo bikes for weddings?", "anything about weddings");
    stage.model.respondWith(modelAnswer(["[0] I am not sure whether dogs can come along."]));
    await ask("Can I bring my dog to the test ride?", "dogs can come along");

    // The operator opens the conversation: "Fix this answer" on the reply about dogs.
    const { rows } = await stage.t.services.db.query<{ id: string }>(`SELECT id FROM conversations WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1`, [stage.tenant.agentId]);
    await page.goto(`${stage.serviceUrl}/console/inbox/${rows[0]!.id}`);
    const transcript = page.getByRole("log", { name: "Transcript" });
    const dogReply = transcript.getByRole("listitem").filter({ hasText: "dogs can come along" });
    await poll(() => dogReply.isVisible()).toBe(true);
    expect(await transcript.getByRole("button", { name: "Fix this answer" }).count()).toBe(2);
    const fix = dogReply.getByRole("button", { name: "Fix this answer" });
    await fix.click();
    const dialog = page.getByRole("dialog", { name: "Fix this answer" });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel("Visitor question").inputValue()).toBe("Can I bring my dog to the test ride?");
    expect(await dialog.textContent()).toContain("I am not sure whether dogs can come along.");
    await poll(() => dialog.getByLabel("Right answer").evaluate((element) => element === document.activeElement)).toBe(true);
    // The focus stays in the dialog; Escape closes it and gives the focus back to its button.
    for (let step = 0; step < 6; step += 1) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await poll(() => dialog.count()).toBe(0);
    // The focus comes back in the frame after the dialog is gone (useDialogOpener), so it is polled for.
    await poll(() => fix.evaluate((element) => element === document.activeElement)).toBe(true);

    // The server's 422 beside the fields it names.
    await page.keyboard.press("Enter");
    await poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByLabel("Source URL (optional)").fill("javascript:alert(1)");
    await dialog.getByRole("button", { name: "Save answer" }).click();
    await poll(() => dialog.getByLabel("Right answer").getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.getByLabel("Source URL (optional)").getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.getByLabel("Visitor question").getAttribute("aria-invalid")).toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, "console-fix-this-answer.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel("Right answer").fill(DOG_ANSWER);
    await dialog.getByLabel("Source URL (optional)").fill("https://acme-bikes.test/test-rides");
    await dialog.getByRole("button", { name: "Save answer" }).click();
    await poll(() => dialog.count()).toBe(0);

    // The visitor asks it again in other words: the curated answer, in the widget, without the model.
    const modelCalls = stage.model.requests.length;
    await ask("May my dog come along on a test ride?", DOG_ANSWER);
    expect(stage.model.requests.length).toBe(modelCalls);
    // The console shows it live, with the Curated badge (and the earlier replies without).
    const curatedReply = transcript.getByRole("listitem").filter({ hasText: DOG_ANSWER });
    await poll(() => curatedReply.getByText("Curated", { exact: true }).isVisible()).toBe(true);
    expect(await transcript.getByText("Curated", { exact: true }).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, "console-curated-reply.png") });

    // The Curated answers screen: the gaps, most frequent first, the one about dogs answered now.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Curated answers" }).click();
    await poll(() => page.getByRole("heading", { name: "Curated answers", level: 1 }).isVisible()).toBe(true);
    const gaps = page.getByRole("list", { name: /^Knowledge gaps/ });
    await poll(() => gaps.getByRole("listitem").count()).toBe(2);
    const dogGap = gaps.getByRole("listitem").filter({ hasText: "Can I bring my dog to the test ride?" });
    expect(await dogGap.getByText("Answered").isVisible()).toBe(true);
    expect(await dogGap.getByLabel("Asked 1 time").isVisible()).toBe(true);
    const weddingGap = gaps.getByRole("listitem").filter({ hasText: "Do you rent cargo bikes for weddings?" });
    expect(await weddingGap.getByText("Answered").count()).toBe(0);
    const curatedList = page.getByRole("list", { name: /^Curated answers/ });
    await poll(() => curatedList.getByRole("listitem").count()).toBe(1);
    expect(await curatedList.textContent()).toContain(DOG_ANSWER);

    // "Answer it": the same dialog, the gap's question prefilled.
    await weddingGap.getByRole("button", { name: /^Answer it/ }).click();
    const answerIt = page.getByRole("dialog", { name: "Answer it" });
    await poll(() => answerIt.isVisible()).toBe(true);
    expect(await answerIt.getByLabel("Visitor question").inputValue()).toBe("Do you rent cargo bikes for weddings?");
    await answerIt.getByLabel("Right answer").fill(WEDDING_ANSWER);
    await answerIt.getByRole("button", { name: "Save answer" }).click();
    await poll(() => answerIt.count()).toBe(0);
    await poll(() => weddingGap.getByText("Answered").count()).toBe(1);
    await poll(() => curatedList.getByRole("listitem").count()).toBe(2);

    // Another console writes one: the list shows it without a reload.
    const colleague = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "admin" });
    const written = await stage.t.app.inject({
      method: "POST",
      url: `${CONSOLE}/curated-answers`,
      headers: colleague.headers,
      payload: { agent_id: stage.tenant.agentId, question: "Do you sell tandem bikes?", answer: "Two models, in the shop on Mill Road." },
    });
    expect(written.statusCode).toBe(201);
    await poll(() => curatedList.getByRole("listitem").count()).toBe(3);
    expect(await curatedList.getByRole("listitem").first().textContent()).toContain("Do you sell tandem bikes?");
    await page.screenshot({ path: join(ARTIFACTS, "console-curated.png"), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    // At a tablet's width, in dark mode: one column, still no serious violation.
    await page.setViewportSize({ width: 820, height: 1000 });
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "console-curated-tablet-dark.png"), fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Delete, after confirming.
    await curatedList.getByRole("listitem").first().getByRole("button", { name: /^Delete/ }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this curated answer?" });
    await poll(() => confirm.isVisible()).toBe(true);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await poll(() => curatedList.getByRole("listitem").count()).toBe(2);
    expect(await curatedList.textContent()).not.toContain("tandem");

    // "Add a source": the Knowledge screen's add form, for the same agent.
    await weddingGap.getByRole("button", { name: /^Add a source/ }).click();
    await poll(() => page.getByRole("heading", { name: "Knowledge", level: 1 }).isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get("agent")).toBe(stage.tenant.agentId);
    await poll(() => page.evaluate(() => document.activeElement?.closest("form")?.getAttribute("aria-labelledby") ?? null)).toBe("add-source-title");
    expect(signedIn.pageErrors).toEqual([]);

    // An operator with the agent role sees the button; the server refuses the write, and the dialog says so.
    const agentRole = await signedInOperator(browser, stage, { email: "abe@acme-bikes.test", name: "Abe", role: "agent" }, `/console/inbox/${rows[0]!.id}`);
    const agentTranscript = agentRole.page.getByRole("log", { name: "Transcript" });
    await poll(() => agentTranscript.getByRole("listitem").filter({ hasText: "dogs can come along" }).isVisible()).toBe(true);
    await agentTranscript.getByRole("listitem").filter({ hasText: "dogs can come along" }).getByRole("button", { name: "Fix this answer" }).click();
    const refused = agentRole.page.getByRole("dialog", { name: "Fix this answer" });
    await refused.getByLabel("Right answer").fill("Cats too.");
    await refused.getByRole("button", { name: "Save answer" }).click();
    await poll(() => refused.getByRole("alert").textContent()).toBe("Only an admin of the workspace may do this.");
    const stored = await stage.t.services.db.query<{ answer: string }>(`SELECT answer FROM curated_answers WHERE agent_id = $1`, [stage.tenant.agentId]);
    expect(stored.rows.map((row) => row.answer).sort()).toEqual([DOG_ANSWER, WEDDING_ANSWER]);
  }, 120_000);

  it("security: a curated question that was a visitor's own words is emptied when that visitor is erased; the answer stays, marked, until an operator writes one; no serious axe violation", async () => {
    const { startSession, bearer } = await import("../../server/test/support/seed.js");
    const visitor = await startSession(stage.t.app, stage.tenant.agentId, { page_url: stage.site.url("/rides") }, stage.site.origin);
    const asked = await stage.t.app.inject({
      method: "POST",
      url: "/api/v1/widget/messages",
      headers: { ...bearer(visitor.jwt), origin: stage.site.origin },
      payload: { message: "Can my grandmother Edith Marlowe borrow a trike?" },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const admin = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "admin" });
    const fixed = await stage.t.app.inject({
      method: "POST",
      url: `${CONSOLE}/curated-answers`,
      headers: admin.headers,
      payload: { message_id: asked.json().data.message_id, answer: "Trikes can be borrowed for an afternoon at any shop." },
    });
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(fixed.json().data.question).toContain("Edith Marlowe");
    const erased = await stage.t.app.inject({ method: "DELETE", url: "/api/v1/widget/me", headers: { ...bearer(visitor.jwt), origin: stage.site.origin } });
    expect(erased.statusCode).toBe(204);

    const operator = await signedInOperator(browser, stage, { email: "eda@acme-bikes.test", name: "Eda", role: "admin" }, `/console/curated?agent=${stage.tenant.agentId}`);
    const entry = operator.page.getByRole("list", { name: "Curated answers, newest first" }).getByRole("listitem").filter({ hasText: "Trikes can be borrowed" });
    await poll(() => entry.textContent()).toContain("No question: it was a visitor's own words, erased with their data.");
    expect(await entry.textContent()).not.toContain("Edith");
    await entry.scrollIntoViewIfNeeded();
    await operator.page.screenshot({ path: join(ARTIFACTS, "console-curated-question-erased.png"), fullPage: true });
    expect(await seriousViolations(operator.page)).toEqual([]);
    expect(operator.pageErrors).toEqual([]);
    await operator.context.close();
  }, 120_000);
});
