import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { bearer, startSession, type StartedSession } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";
import { screenshotWhole } from "./support/screenshot-whole.js";

/**
 * The support team's workbench in Chromium, on the real service: saved replies managed on their
 * screen (an unknown variable refused beside the text) and inserted in the reply box by `/` and a
 * shortcut, with the keyboard (listbox, Up/Down, Enter, Escape) and filled for the conversation;
 * an internal note with a mention, set apart in the transcript; the keyboard shortcuts and their
 * dialog under `?`. Light, dark and narrow; no serious axe violation.
 */
describeNeeding("chromium-headless-shell")("the console's workbench: saved replies, notes and keyboard shortcuts, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let gina: StartedSession;
  let second: StartedSession;

  const visitor = async (message: string, lead?: { email: string; name: string }) => {
    const session = await startSession(stage.t.app, stage.tenant.agentId, { page_url: `${stage.site.origin}/` }, stage.site.origin);
    if (lead) {
      const left = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: bearer(session.jwt), payload: lead });
      expect(left.statusCode, left.body).toBeLessThan(300);
    }
    const asked = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(session.jwt), payload: { reason: message } });
    expect(asked.statusCode, asked.body).toBe(200);
    return session;
  };

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    second = await visitor("Can I change my delivery address?");
    gina = await visitor("Where is my refund?", { email: "gina@visitors.test", name: "Gina" });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  it("happy: saved replies are managed on their screen and inserted with / and the keyboard, filled for the conversation; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "tess@acme-bikes.test", name: "Tess", role: "admin" }, "/console/saved-replies");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-saved-replies-failure.png"), fullPage: true });
      console.error("console page errors:", pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Saved replies", level: 1 }).isVisible()).toBe(true);
    const form = page.getByRole("form", { name: "Add a saved reply" });
    await form.getByRole("radio", { name: "The whole team" }).check();
    await form.getByLabel("Title").fill("Refund sent");
    await form.getByLabel("Shortcut (typed after / in the reply box)").fill("refund");
    await form.getByLabel("Text").fill("Hi {{visitor.first_name}}, your refund left today.");
    await form.getByRole("button", { name: "Add saved reply" }).click();
    // An unknown variable is refused when saved, beside the text.
    await poll(() => form.getByLabel("Text").getAttribute("aria-invalid")).toBe("true");
    expect(await form.textContent()).toContain("unknown variable {{visitor.first_name}}");
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByLabel("Text").fill("Hi {{visitor.name|there}}, your refund left today. {{operator.name}} from {{agent.name}}");
    await form.getByRole("button", { name: "Add saved reply" }).click();
    await poll(() => form.getByRole("status").textContent()).toBe("Saved reply added.");
    await form.getByLabel("Title").fill("Delivery address");
    await form.getByLabel("Shortcut (typed after / in the reply box)").fill("address");
    await form.getByLabel("Text").fill("You can change the delivery address until the parcel ships.");
    await form.getByRole("button", { name: "Add saved reply" }).click();
    const team = page.getByRole("region", { name: "The team's" });
    await poll(() => team.getByRole("listitem").count()).toBe(2);
    await screenshotWhole(page, ".saved-replies", "console-saved-replies.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshotWhole(page, ".saved-replies", "console-saved-replies-dark.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // In Gina's conversation: take over with `t`, then `/ref` in the reply box.
    await page.goto(`${stage.serviceUrl}/console/inbox/${gina.conversationId}`);
    await poll(() => page.getByRole("button", { name: "Take over" }).isVisible()).toBe(true);
    await page.locator("body").press("t");
    const box = page.getByRole("textbox", { name: "Reply to the visitor" });
    await poll(() => box.isVisible()).toBe(true);
    await poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    await box.pressSequentially("/ref");
    const list = page.getByRole("listbox", { name: "Saved replies" });
    await poll(() => list.isVisible()).toBe(true);
    await poll(() => list.getByRole("option").count()).toBe(1);
    expect(await box.getAttribute("aria-controls")).toBe(await list.getAttribute("id"));
    expect(await box.getAttribute("aria-activedescendant")).toBe(await list.getByRole("option").first().getAttribute("id"));
    expect(await page.locator("[aria-live=polite]").filter({ hasText: "1 saved reply matches /ref: Up and Down to choose" }).count()).toBe(1);
    await screenshotWhole(page, ".conversation", "console-saved-reply-picker.png");
    expect(await seriousViolations(page)).toEqual([]);
    // Escape closes the list and leaves the text; typing on from a fresh / opens it again, with both replies.
    await box.press("Escape");
    await poll(() => list.count()).toBe(0);
    expect(await box.inputValue()).toBe("/ref");
    await box.fill("");
    await box.pressSequentially("/");
    await poll(() => list.getByRole("option").count()).toBe(2);
    await box.press("ArrowDown");
    expect(await list.getByRole("option", { selected: true }).textContent()).toContain("/refund");
    await box.press("ArrowUp");
    expect(await list.getByRole("option", { selected: true }).textContent()).toContain("/address");
    await box.press("ArrowDown");
    await box.press("Enter");
    await poll(() => box.inputValue()).toBe("Hi Gina, your refund left today. Tess from Acme Assistant");
    await poll(() => list.count()).toBe(0);
    // Enter again sends it (the list is closed): the visitor gets the filled text.
    await box.press("Enter");
    await poll(() => page.locator(".transcript .from-operator").last().textContent()).toContain("Hi Gina, your refund left today.");
    expect(pageErrors).toEqual([]);
    await context.close();

    // An operator with the agent role uses the team's replies and keeps their own; the team's are the admins' to change.
    const reader = await signedInOperator(browser, stage, { email: "ivan@acme-bikes.test", name: "Ivan", role: "agent" }, "/console/saved-replies");
    const teams = reader.page.getByRole("region", { name: "The team's" });
    await poll(() => teams.getByRole("listitem").count()).toBe(2);
    expect(await teams.getByRole("button").count()).toBe(0);
    expect(await reader.page.getByRole("radio", { name: "The whole team" }).count()).toBe(0);
    expect(await seriousViolations(reader.page)).toEqual([]);
    await reader.context.close();
  }, 180_000);

  it("happy: a note with a mention is set apart in the transcript; shortcuts move, take over and hand back, listed under ?; no serious axe violation", async () => {
    const reed = await signedInOperator(browser, stage, { email: "reed@acme-bikes.test", name: "Reed Park", role: "agent" }, "/console/inbox");
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "nora@acme-bikes.test", name: "Nora", role: "agent" }, `/console/inbox/${gina.conversationId}`);
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-notes-failure.png"), fullPage: true });
      console.error("console page errors:", pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Inbox" }).isVisible()).toBe(true);

    // `n`: the note box, any state of the conversation (once the conversation is shown).
    await poll(() => page.getByRole("group", { name: "Write" }).isVisible()).toBe(true);
    await page.locator("body").press("n");
    const noteBox = page.getByRole("textbox", { name: "Internal note for the team" });
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-describedby") !== null && document.activeElement?.tagName === "TEXTAREA")).toBe(true);
    expect(await page.getByRole("button", { name: /Internal note/ }).getAttribute("aria-pressed")).toBe("true");
    // `@` offers the colleagues (never the author), narrowed as the name is typed; Enter writes the name out.
    await noteBox.fill("Second refund this month. ");
    await noteBox.press("End");
    await noteBox.pressSequentially("@");
    const colleagues = page.getByRole("listbox", { name: "Colleagues to mention" });
    await poll(() => colleagues.isVisible()).toBe(true);
    const offered = await colleagues.getByRole("option").allTextContents();
    expect(offered.some((option) => option.startsWith("Reed Park"))).toBe(true);
    expect(offered.some((option) => option.startsWith("Nora"))).toBe(false);
    expect(await noteBox.getAttribute("aria-activedescendant")).not.toBeNull();
    await screenshotWhole(page, ".conversation", "console-note-mention-picker.png");
    expect(await seriousViolations(page)).toEqual([]);
    await noteBox.pressSequentially("pa");
    await poll(() => colleagues.getByRole("option").allTextContents()).toEqual([expect.stringMatching(/^Reed Park/)]);
    await noteBox.press("Enter");
    await poll(() => colleagues.isVisible()).toBe(false);
    await poll(() => noteBox.inputValue()).toBe("Second refund this month. @Reed Park ");
    await noteBox.pressSequentially("can you check the warehouse?");
    expect(await noteBox.inputValue()).toBe("Second refund this month. @Reed Park can you check the warehouse?");
    await noteBox.press("Enter");
    const note = page.getByRole("listitem", { name: "Internal note by Nora" });
    await poll(() => note.isVisible()).toBe(true);
    expect(await note.textContent()).toContain("Second refund this month.");
    // Reed sees it live, and has it in his inbox.
    await reed.page.goto(`${stage.serviceUrl}/console/inbox/${gina.conversationId}`);
    await poll(() => reed.page.getByRole("listitem", { name: "Internal note by Nora" }).isVisible()).toBe(true);
    const mentions = await stage.t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM inbox_notifications WHERE kind = 'note.mentioned' AND conversation_id = $1`, [gina.conversationId]);
    expect(mentions.rows[0]!.n).toBe(1);
    await reed.context.close();
    await screenshotWhole(page, ".conversation", "console-note.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshotWhole(page, ".conversation", "console-note-dark.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // `?` typed in a text box is text; outside one it opens the dialog.
    await noteBox.fill("");
    await noteBox.pressSequentially("?");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await noteBox.press("Escape");
    await poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe("TEXTAREA");
    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain("Next conversation in the list");
    await page.screenshot({ path: join(ARTIFACTS, "console-shortcuts-dialog.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await poll(() => dialog.isVisible()).toBe(false);

    // j and k move through the list; the list is newest activity first.
    const current = () => new URL(page.url()).pathname;
    await page.keyboard.press("j");
    await poll(current).not.toBe(`/console/inbox/${gina.conversationId}`);
    const next = current();
    await page.keyboard.press("k");
    await poll(current).toBe(`/console/inbox/${gina.conversationId}`);
    expect([`/console/inbox/${second.conversationId}`]).toContain(next);

    // In the second conversation: take over, hand back, close, each by its key.
    await page.goto(`${stage.serviceUrl}/console/inbox/${second.conversationId}`);
    await poll(() => page.getByRole("button", { name: "Take over" }).isVisible()).toBe(true);
    await page.locator("body").press("t");
    await poll(() => page.getByRole("button", { name: "Hand back to the assistant" }).isVisible()).toBe(true);
    // Once the take-over's request has ended (its buttons enabled again), it has put the focus in the
    // reply box; Escape leaves it, and the keys act again.
    await poll(() => page.getByRole("button", { name: "Hand back to the assistant" }).isEnabled()).toBe(true);
    await poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    await page.keyboard.press("Escape");
    await poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe("TEXTAREA");
    await poll(() => page.getByRole("button", { name: "Hand back to the assistant" }).isEnabled()).toBe(true);
    await page.keyboard.press("h");
    await poll(() => page.getByRole("button", { name: "Take over" }).isVisible()).toBe(true);
    // The hand-back's request may still be in flight (its buttons disabled, its keys off): wait for it.
    await poll(() => page.getByRole("button", { name: "Close" }).isEnabled()).toBe(true);
    await page.keyboard.press("Shift+C");
    await poll(() => page.getByRole("button", { name: "Close" }).count()).toBe(0);
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: join(ARTIFACTS, "console-workbench-narrow.png") });
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
