import { afterAll, beforeAll, expect, it } from "vitest";
import { operatorsOnline } from "../../src/conversations/operators-online.js";
import type { MailJobContext } from "../../src/mail/mail-job-context.js";
import { runMailCheck } from "../../src/mail/run-mail-check.js";
import { CONSOLE } from "../support/console-session.js";
import { buildPdf, formData } from "../support/generated-files.js";
import { bearer } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";
import { startMailWorld, W, type MailWorld } from "./mail-world.js";

/**
 * The unseen checks run by hand (no mail worker, no SMTP: mails wait in the outbox), so that what the
 * visitor saw before the check is certain.
 */
describeEachStore("what the visitor has seen decides the e-mail, on %s", (kind) => {
  let world: MailWorld;
  let context: MailJobContext;

  beforeAll(async () => {
    world = await startMailWorld(kind, {});
    const { services } = world.t;
    context = {
      db: services.db,
      jobs: services.jobs,
      settings: services.config.mail,
      publicUrl: services.config.publicUrl,
      resumeTokens: services.resumeTokens,
      operatorsOnline: (workspaceId) => operatorsOnline(services, workspaceId),
      now: services.now,
    };
  }, 120_000);
  afterAll(() => world.close());

  /** A visitor who left `email`, whose conversation the admin took over and answered; the reply's seq and the pending check. */
  const answered = async (email: string) => {
    const { t, cast } = world;
    const visitor = await world.visitorWithLead(email);
    await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/assign`, headers: cast.admin.headers, payload: {} });
    const reply = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/messages`, headers: cast.admin.headers, payload: { content: `Hello ${email}` } });
    expect(reply.statusCode, reply.body).toBe(201);
    const { rows } = await t.services.db.query<{ id: string }>(`SELECT id FROM mail_checks WHERE conversation_id = $1 AND kind = 'unseen_by_visitor'`, [visitor.conversationId]);
    expect(rows).toHaveLength(1);
    return { visitor, seq: reply.json().data.seq as number, checkId: rows[0]!.id };
  };
  const mailsAbout = async (conversationId: string) =>
    (await world.t.services.db.query<{ kind: string; status: string }>(`SELECT kind, status FROM mail_messages WHERE conversation_id = $1 AND kind = 'visitor_reply'`, [conversationId])).rows;
  const checkLeft = async (checkId: string) => (await world.t.services.db.query(`SELECT 1 FROM mail_checks WHERE id = $1`, [checkId])).rows.length;

  it("happy: a reply the visitor has not seen is mailed once (waiting for SMTP), and its check is done", async () => {
    const { visitor, checkId } = await answered("ivy@visitors.test");
    await runMailCheck(context, { workspaceId: world.cast.tenant.workspaceId, checkId });
    expect(await mailsAbout(visitor.conversationId)).toEqual([{ kind: "visitor_reply", status: "waiting" }]);
    expect(await checkLeft(checkId)).toBe(0);
    // The same check again (a duplicate job) finds nothing to do.
    await runMailCheck(context, { workspaceId: world.cast.tenant.workspaceId, checkId });
    expect(await mailsAbout(visitor.conversationId)).toHaveLength(1);
  });

  it("happy: a reply of files alone is mailed naming them, and so is the transcript's line of it", async () => {
    const { t, cast } = world;
    const visitor = await world.visitorWithLead("kim@visitors.test");
    const conversation = `${CONSOLE}/conversations/${visitor.conversationId}`;
    await t.app.inject({ method: "POST", url: `${conversation}/assign`, headers: cast.admin.headers, payload: {} });
    const guide = await t.app.inject({
      method: "POST",
      url: `${conversation}/attachments`,
      headers: cast.admin.headers,
      payload: formData({}, { name: "repair guide.pdf", bytes: await buildPdf(["How to patch the fly"]) }),
    });
    expect(guide.statusCode, guide.body).toBe(201);
    const reply = await t.app.inject({ method: "POST", url: `${conversation}/messages`, headers: cast.admin.headers, payload: { content: "", attachment_ids: [guide.json().data.id] } });
    expect(reply.statusCode, reply.body).toBe(201);
    const { rows: checks } = await t.services.db.query<{ id: string }>(`SELECT id FROM mail_checks WHERE conversation_id = $1 AND kind = 'unseen_by_visitor'`, [visitor.conversationId]);
    await runMailCheck(context, { workspaceId: cast.tenant.workspaceId, checkId: checks[0]!.id });
    const transcript = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: {} });
    expect(transcript.statusCode, transcript.body).toBeLessThan(300);
    const { rows } = await t.services.db.query<{ kind: string; text_body: string; html_body: string }>(
      `SELECT kind, text_body, html_body FROM mail_messages WHERE conversation_id = $1 ORDER BY kind`,
      [visitor.conversationId],
    );
    expect(rows.map((row) => row.kind)).toEqual(["transcript", "visitor_reply"]);
    for (const mail of rows) {
      expect(mail.text_body).toContain("📎 repair guide.pdf");
      expect(mail.html_body).toContain("📎 repair guide.pdf");
    }
  });

  it("happy: a reply acknowledged by the widget (POST /conversation/seen) is not mailed", async () => {
    const { visitor, seq, checkId } = await answered("jack@visitors.test");
    const seen = await world.t.app.inject({ method: "POST", url: `${W}/conversation/seen`, headers: bearer(visitor.jwt), payload: { seq } });
    expect(seen.statusCode, seen.body).toBe(204);
    await runMailCheck(context, { workspaceId: world.cast.tenant.workspaceId, checkId });
    expect(await mailsAbout(visitor.conversationId)).toEqual([]);
    expect(await checkLeft(checkId)).toBe(0);
  });

  it("happy: a reply fetched by the widget (GET /conversation/messages) is not mailed", async () => {
    const { visitor, checkId } = await answered("kim@visitors.test");
    const fetched = await world.t.app.inject({ method: "GET", url: `${W}/conversation/messages?after_seq=0`, headers: bearer(visitor.jwt) });
    expect(fetched.statusCode).toBe(200);
    await runMailCheck(context, { workspaceId: world.cast.tenant.workspaceId, checkId });
    expect(await mailsAbout(visitor.conversationId)).toEqual([]);
  });

  it("error: POST /conversation/seen refuses a bad seq in the error shape, and never moves the mark back", async () => {
    const { visitor, seq, checkId } = await answered("lou@visitors.test");
    for (const payload of [{ seq: 0 }, { seq: "3" }, {}]) {
      const refused = await world.t.app.inject({ method: "POST", url: `${W}/conversation/seen`, headers: bearer(visitor.jwt), payload });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toMatchObject({ code: "validation_failed", fields: { seq: expect.any(Array) } });
    }
    await world.t.app.inject({ method: "POST", url: `${W}/conversation/seen`, headers: bearer(visitor.jwt), payload: { seq } });
    await world.t.app.inject({ method: "POST", url: `${W}/conversation/seen`, headers: bearer(visitor.jwt), payload: { seq: 1 } });
    await runMailCheck(context, { workspaceId: world.cast.tenant.workspaceId, checkId });
    expect(await mailsAbout(visitor.conversationId)).toEqual([]);
    const anonymous = await world.t.app.inject({ method: "POST", url: `${W}/conversation/seen`, payload: { seq } });
    expect(anonymous.statusCode).toBe(401);
  });
});
