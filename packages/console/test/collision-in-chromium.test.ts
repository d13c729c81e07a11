import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { createSignedInOperator } from "../../server/test/support/console-session.js";
import { bearer, startSession } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/**
 * Collision in Chromium: two operators in two contexts of one browser open the same conversation.
 * Each sees the other in "Also here" (never themselves); the second sees the first typing (a
 * whisper on the conversation's operators presence channel); while the first has the
 * conversation, the second's reply box is disabled and says why, and the server refuses her reply.
 */
describeNeeding("chromium-headless-shell")("collision in the conversation screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  it("happy: Bea sees Ana in Also here and her typing, live; security: while Ana has the conversation Bea's reply box is disabled with the reason, and the server refuses Bea's reply (409 not_assignee); no serious axe violation", async () => {
    // A visitor asks for a person.
    const visitor = await startSession(stage.t.app, stage.tenant.agentId, { page_url: stage.site.url("/pricing") }, stage.site.origin);
    const requested = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(visitor.jwt), payload: { reason: "A question about tandems" } });
    expect(requested.statusCode, requested.body).toBe(200);
    const path = `/console/inbox/${visitor.conversationId}`;

    const ana = await signedInOperator(browser, stage, { email: "ana@collision.test", name: "Ana", role: "agent" }, path);
    const bea = await signedInOperator(browser, stage, { email: "bea@collision.test", name: "Bea", role: "agent" }, path);
    onTestFailed(async () => {
      await bea.page.screenshot({ path: join(ARTIFACTS, "console-collision-failure.png") });
      console.error("page errors:", { ana: ana.pageErrors, bea: bea.pageErrors });
    });
    const alsoHere = (page: typeof ana.page) => page.locator(".collision");
    const typingLine = (page: typeof ana.page) => page.locator(".typing-indicator");

    // Each sees the other, and not themselves.
    await poll(() => alsoHere(bea.page).textContent()).toBe("Also here: Ana (viewing)");
    await poll(() => alsoHere(ana.page).textContent()).toBe("Also here: Bea (viewing)");
    expect(await alsoHere(ana.page).getAttribute("aria-live")).toBe("polite");

    // Bea's role changes (and back): each time the server ends her membership, signed with her old
    // role, and her console joins again signed as she is now, so Ana still sees her.
    const boss = await createSignedInOperator(stage.t, { workspaceId: stage.tenant.workspaceId, role: "admin" });
    const { rows } = await stage.t.services.db.query<{ id: string }>(`SELECT id FROM operators WHERE email = $1`, ["bea@collision.test"]);
    for (const role of ["admin", "agent"]) {
      const changed = await stage.t.app.inject({ method: "PATCH", url: `/api/v1/console/operators/${rows[0]!.id}`, headers: boss.headers, payload: { role } });
      expect(changed.statusCode, changed.body).toBe(200);
      // A revocation arrives within a second; without joining again, Bea would be gone from Ana's list.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await poll(() => alsoHere(ana.page).textContent()).toBe("Also here: Bea (viewing)");
    }

    // Ana takes over: Bea's reply box is disabled, saying why, and she has no "Take over".
    await ana.page.getByRole("button", { name: "Take over" }).click();
    const anaReply = ana.page.getByRole("textbox", { name: "Reply to the visitor" });
    await poll(() => anaReply.isEnabled()).toBe(true);
    const beaReply = bea.page.getByRole("textbox", { name: "Reply to the visitor" });
    await poll(() => bea.page.locator(".conversation-state").textContent()).toContain("Assigned to Ana");
    await poll(() => beaReply.isDisabled()).toBe(true);
    const reason = "Ana has this conversation. Only the operator it is assigned to can reply.";
    expect(await bea.page.getByText(reason).isVisible()).toBe(true);
    // The reason is the box's description, for a screen reader on the disabled box.
    expect(await beaReply.evaluate((element) => document.getElementById(element.getAttribute("aria-describedby") ?? "")?.textContent)).toBe(reason);
    expect(await bea.page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    expect(await bea.page.getByRole("button", { name: "Take over" }).count()).toBe(0);

    // Ana types: Bea sees it in the live typing line and in Also here; Ana does not see herself.
    await anaReply.focus();
    await ana.page.keyboard.type("Tandems are 40 euros a day");
    await poll(() => typingLine(bea.page).textContent()).toBe("Ana is typing…");
    expect(await typingLine(bea.page).getAttribute("aria-live")).toBe("polite");
    await poll(() => alsoHere(bea.page).textContent()).toBe("Also here: Ana (typing)");
    expect(await typingLine(ana.page).textContent()).toBe("");
    expect(await alsoHere(ana.page).textContent()).toBe("Also here: Bea (viewing)");
    await bea.page.screenshot({ path: join(ARTIFACTS, "console-collision.png") });
    expect(await seriousViolations(bea.page)).toEqual([]);
    expect(await seriousViolations(ana.page)).toEqual([]);

    // The server refuses Bea's reply, whatever the page shows: 409 not_assignee in the one error shape.
    const refused = await bea.page.evaluate(async (id) => {
      const response = await fetch(`/api/v1/console/conversations/${id}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: "Let me answer instead" }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    }, visitor.conversationId);
    expect(refused).toEqual({ status: 409, body: { error: { code: "not_assignee", message: "Ana has this conversation: only the assignee may reply." } } });

    // Ana leaves the box: her typing stops for Bea at once (no fade needed).
    await ana.page.getByRole("button", { name: "Send" }).focus();
    await poll(() => typingLine(bea.page).textContent()).toBe("");
    await poll(() => alsoHere(bea.page).textContent()).toBe("Also here: Ana (viewing)");
    // Ana sends; Bea reads it, her box still disabled.
    await anaReply.focus();
    await ana.page.keyboard.press("Enter");
    await poll(() => bea.page.getByRole("log", { name: "Transcript" }).getByText("Tandems are 40 euros a day").count()).toBe(1);
    expect(await beaReply.isDisabled()).toBe(true);

    // Bea goes back to the inbox: Ana is alone again.
    await bea.page.getByRole("link", { name: "Inbox" }).first().click();
    await poll(() => alsoHere(ana.page).textContent()).toBe("");

    expect([...ana.pageErrors, ...bea.pageErrors]).toEqual([]);
    await Promise.all([ana.context.close(), bea.context.close()]);
  }, 120_000);

  it("happy: a reply whose answer was lost (the connection dropped after the service stored it) is sent again with the same Idempotency-Key, by the console once and then by the operator: the visitor and the transcript get it once; no serious axe violation", async () => {
    const visitor = await startSession(stage.t.app, stage.tenant.agentId, { page_url: stage.site.url("/repairs") }, stage.site.origin);
    const requested = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(visitor.jwt), payload: { reason: "Is my bike ready?" } });
    expect(requested.statusCode, requested.body).toBe(200);
    const ana = await signedInOperator(browser, stage, { email: "ana@lost-reply.test", name: "Ana", role: "agent" }, `/console/inbox/${visitor.conversationId}`);
    onTestFailed(async () => {
      await ana.page.screenshot({ path: join(ARTIFACTS, "console-lost-reply-failure.png") });
      console.error("page errors:", ana.pageErrors);
    });
    await ana.page.getByRole("button", { name: "Take over" }).click();
    const box = ana.page.getByRole("textbox", { name: "Reply to the visitor" });
    await poll(() => box.isEnabled()).toBe(true);

    // Every send reaches the service (which stores the reply the first time); while `dropping` lasts,
    // no answer reaches the page.
    const keys: (string | null)[] = [];
    let dropping = 0;
    await ana.page.route(`**/api/v1/console/conversations/${visitor.conversationId}/messages`, async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      keys.push(await route.request().headerValue("idempotency-key"));
      if (dropping === 0) return route.fallback();
      dropping -= 1;
      await route.fetch();
      await route.abort("connectionreset");
    });
    const transcript = ana.page.getByRole("log", { name: "Transcript" });
    const operatorReplies = async () =>
      (await stage.t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1 AND role = 'operator'`, [visitor.conversationId])).rows[0]!.n;

    // One answer lost: the console sends the reply again by itself, with the same key.
    dropping = 1;
    await box.fill("Your bike is ready: pick it up any time before six.");
    await box.press("Enter");
    await poll(() => box.inputValue()).toBe("");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    await poll(() => transcript.getByText("Your bike is ready: pick it up any time before six.").count()).toBe(1);
    expect(await operatorReplies()).toBe(1);

    // Both answers lost: the box keeps the reply and says to send it again; sent again, it goes with the same key.
    dropping = 2;
    await box.fill("The lock is in the basket.");
    await box.press("Enter");
    const warning = ana.page.getByRole("alert").filter({ hasText: "No answer from the service. Send again: the visitor gets the reply once." });
    await poll(() => warning.count()).toBe(1);
    expect(await box.inputValue()).toBe("The lock is in the basket.");
    // The reply was stored at the first try: the transcript shows it, live.
    await poll(() => transcript.getByText("The lock is in the basket.").count()).toBe(1);
    await ana.page.screenshot({ path: join(ARTIFACTS, "console-lost-reply.png") });
    expect(await seriousViolations(ana.page)).toEqual([]);
    await box.press("Enter");
    await poll(() => box.inputValue()).toBe("");
    expect(keys).toHaveLength(5);
    expect(new Set(keys.slice(2))).toEqual(new Set([keys[2]]));
    expect(keys[2]).not.toBe(keys[0]);
    expect(await warning.count()).toBe(0);
    expect(await transcript.getByText("The lock is in the basket.").count()).toBe(1);
    expect(await operatorReplies()).toBe(2);

    // A new reply gets a new key.
    await box.fill("See you soon.");
    await box.press("Enter");
    await poll(() => transcript.getByText("See you soon.").count()).toBe(1);
    expect(keys).toHaveLength(6);
    expect(keys.slice(0, 5)).not.toContain(keys[5]);
    expect(ana.pageErrors).toEqual([]);
    await ana.context.close();
  }, 120_000);
});
