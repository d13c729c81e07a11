import { pino } from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { registerPushWorkers } from "../../src/push/register-push-workers.js";
import { startMailWorld, W, type MailWorld } from "../mail/mail-world.js";
import { SmtpReceiver } from "../mail/smtp-receiver.js";
import { LoopbackPushService } from "../push/loopback-push-service.js";
import { CONSOLE } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, type StartedSession } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

/**
 * A mention alerts the operator it names by e-mail and on their devices (where set up); the
 * visitor's mails (an unseen reply, the transcript) never carry a note.
 */
describeEachStore("a note's mentions by e-mail and push, and the visitor's mails without notes, on %s", (kind) => {
  let world: MailWorld;
  let receiver: SmtpReceiver;
  const pushService = new LoopbackPushService();
  let pushWorkers: { close(): Promise<void> };

  beforeAll(async () => {
    receiver = new SmtpReceiver();
    await receiver.start();
    await pushService.start();
    world = await startMailWorld(kind, {
      FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`,
      FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS: "true",
      FRONTDESK_VAPID_SUBJECT: "mailto:ops@frontdesk.test",
    });
    await world.startWorkers();
    pushWorkers = await registerPushWorkers(world.t.services, pino({ level: "silent" }));
  }, 120_000);
  afterAll(async () => {
    await pushWorkers?.close();
    await world?.close();
    await receiver?.close();
    await pushService.close();
  });

  const post = async (session: StartedSession, path: string, payload: Record<string, unknown>) => {
    const response = await world.t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(session.jwt), payload });
    expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
  };
  const consoleCall = async (headers: Record<string, string>, path: string, payload: Record<string, unknown>) => {
    const response = await world.t.app.inject({ method: "POST", url: `${CONSOLE}${path}`, headers, payload });
    expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
    return response;
  };

  it("happy: the mentioned operator gets an e-mail with the note and a push alert on their device; the author and the unmentioned get neither", async () => {
    const { cast, t } = world;
    const device = pushService.subscribe("/agent-phone");
    expect((await consoleCall(cast.agentOperator.headers, "/push/devices", { endpoint: device.endpoint, keys: device.keys })).statusCode).toBe(201);
    const adminDevice = pushService.subscribe("/admin-laptop");
    expect((await consoleCall(cast.admin.headers, "/push/devices", { endpoint: adminDevice.endpoint, keys: adminDevice.keys })).statusCode).toBe(201);

    const visitor = await world.visitorWithLead("ivy@visitors.test");
    const agentName = cast.agentOperator.operator.name;
    const written = await consoleCall(cast.admin.headers, `/conversations/${visitor.conversationId}/notes`, { content: `@${agentName} can you call this customer <back>?` });
    const noteId = written.json().data.id as string;

    const mail = await receiver.mailTo(cast.agentOperator.operator.email);
    const author = cast.admin.operator.name;
    expect(mail.parsed.subject).toBe(`${author} mentioned you in a note`);
    expect(mail.parsed.text).toContain(`${author} mentioned you in an internal note of a conversation with Acme Assistant:`);
    expect(mail.parsed.text).toContain("can you call this customer <back>?");
    expect(mail.parsed.html).toContain("can you call this customer &lt;back&gt;?");
    expect(mail.parsed.text).toContain(`Open the conversation: ${t.services.config.publicUrl}/console/inbox/${visitor.conversationId}`);

    await vi.waitFor(() => expect(pushService.at("/agent-phone")).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(pushService.rejected).toEqual([]);
    expect(pushService.at("/agent-phone")[0]!.alert).toEqual({
      kind: "note_mentioned",
      title: `${author} mentioned you in a note`,
      body: `@${agentName} can you call this customer <back>?`,
      url: `${t.services.config.publicUrl}/console/inbox/${visitor.conversationId}`,
      conversation_id: visitor.conversationId,
      tag: `note-${noteId}`,
    });
    // The author is not alerted about their own note; the visitor is not mailed about it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(pushService.at("/admin-laptop")).toEqual([]);
    expect(receiver.mails.filter((received) => received.envelope.to.includes(cast.admin.operator.email))).toEqual([]);
    expect(receiver.mails.filter((received) => received.envelope.to.includes("ivy@visitors.test"))).toEqual([]);
  });

  it("security: the visitor's e-mails (the reply they missed, their transcript) and the conversation their link resumes never carry a note", async () => {
    const { cast, t } = world;
    const secret = `mail-secret-${Math.random().toString(36).slice(2)}`;
    const visitor = await world.visitorWithLead("jade@visitors.test");
    await post(visitor, "/request-human", { reason: "Where is my refund?" });
    await consoleCall(cast.admin.headers, `/conversations/${visitor.conversationId}/assign`, {});
    await consoleCall(cast.admin.headers, `/conversations/${visitor.conversationId}/notes`, { content: `${secret} — second refund this month` });
    await consoleCall(cast.admin.headers, `/conversations/${visitor.conversationId}/messages`, { content: "Your refund left today" });
    const missed = await receiver.mailTo("jade@visitors.test");
    expect(missed.parsed.text).toContain("Your refund left today");
    // Its link resumes the conversation in another browser: the messages it shows hold no note either.
    const token = /#frontdesk_resume=([\w.-]+)/.exec(missed.parsed.text ?? "")?.[1];
    expect(token).toBeDefined();
    const resumed = await t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: SITE_ORIGIN }, payload: { agent_id: cast.tenant.agentId, page_url: `${SITE_ORIGIN}/`, resume_token: token } });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data.conversation_id).toBe(visitor.conversationId);
    expect(resumed.body).toContain("Your refund left today");
    expect(resumed.body).not.toContain(secret);
    await post(visitor, "/conversation/transcript", {});
    await expect.poll(() => receiver.mails.filter((received) => received.envelope.to.includes("jade@visitors.test")).length, { timeout: 20_000 }).toBe(2);
    const toVisitor = receiver.mails.filter((received) => received.envelope.to.includes("jade@visitors.test"));
    const transcript = toVisitor.find((received) => received !== missed)!;
    expect(transcript.parsed.text).toContain("Your refund left today");
    for (const received of toVisitor) {
      expect(`${received.parsed.subject} ${received.parsed.text} ${received.parsed.html}`).not.toContain(secret);
    }
    const stored = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE recipient = $1 AND strpos(text_body || html_body, $2) > 0`, ["jade@visitors.test", secret]);
    expect(stored.rows[0]!.n).toBe(0);
  });
});
