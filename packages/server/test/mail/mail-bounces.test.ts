import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { registerInboundMailMetrics } from "../../src/mail/inbound-mail-metrics.js";
import { pollImapMailbox } from "../../src/mail/poll-imap-mailbox.js";
import type { InboundMailContext } from "../../src/mail/receive-inbound-mail.js";
import { capturedLogger, type LogLine } from "../support/captured-log.js";
import { CONSOLE } from "../support/console-session.js";
import { DovecotServer } from "../support/dovecot-server.js";
import { describeEachNeeding } from "../support/test-legs.js";
import { legsOfStore, storeKinds } from "../support/test-database.js";
import { startMailWorld, type MailWorld } from "./mail-world.js";
import { SmtpReceiver } from "./smtp-receiver.js";

const MAILGUN_KEY = "mailgun-signing-key-for-tests-0123456789";

/**
 * A delivery status notification as Postfix writes it (RFC 3464): a human part, the
 * `message/delivery-status` part (its Diagnostic-Code folded over two lines) and the returned mail,
 * whole (`message/rfc822`) or its headers only (`text/rfc822-headers`).
 */
function deliveryReport(options: { to: string; returnedMessageId: string; action: "failed" | "delayed"; status: string; reportId: string; returned?: "message/rfc822" | "text/rfc822-headers" }): string {
  const returnedHeaders = ["From: Acme Support <support@acme.test>", `To: ${options.to}`, "Subject: Your conversation with Acme Assistant", `Message-ID: ${options.returnedMessageId}`];
  const returned = options.returned === "text/rfc822-headers" ? returnedHeaders : [...returnedHeaders, "Content-Type: text/plain; charset=utf-8", "", "Hello, your refund left today"];
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.visitors.test>",
    "To: support@acme.test",
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: ${options.reportId}`,
    "Date: Sat, 28 Nov 2026 10:00:00 +0000",
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="REPORT"',
    "",
    "--REPORT",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "This is the mail system at host mx.visitors.test. Your message could not be delivered.",
    "",
    "--REPORT",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.visitors.test",
    "Arrival-Date: Sat, 28 Nov 2026 09:59:58 +0000",
    "",
    `Final-Recipient: rfc822; ${options.to}`,
    `Original-Recipient: rfc822;${options.to}`,
    `Action: ${options.action}`,
    `Status: ${options.status}`,
    `Diagnostic-Code: smtp; 550 ${options.status} <${options.to}>: Recipient address`,
    "    rejected: User unknown in virtual mailbox table",
    "",
    "--REPORT",
    `Content-Type: ${options.returned ?? "message/rfc822"}`,
    "",
    ...returned,
    "",
    "--REPORT--",
    "",
  ].join("\r\n");
}

describeEachNeeding(storeKinds, (kind) => [...legsOfStore(kind), "dovecot"])("bounces of mails to visitors on %s", (kind) => {
  let world: MailWorld;
  let receiver: SmtpReceiver;
  let dovecot: DovecotServer;
  let context: InboundMailContext;
  let log: LogLine[];

  beforeAll(async () => {
    receiver = new SmtpReceiver();
    await receiver.start();
    dovecot = new DovecotServer();
    await dovecot.start();
    world = await startMailWorld(kind, {
      FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`,
      FRONTDESK_MAIL_REPLY_TO: "replies@acme.test",
      FRONTDESK_IMAP_URL: dovecot.url,
      FRONTDESK_IMAP_POLL_SECONDS: "86400",
      FRONTDESK_INBOUND_MAILGUN_SIGNING_KEY: MAILGUN_KEY,
    });
    await world.startWorkers();
    const captured = capturedLogger();
    log = captured.lines;
    context = { services: world.t.services, logger: captured.logger, metrics: registerInboundMailMetrics(world.t.services.metrics) };
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
    await dovecot?.close();
  });

  const poll = () => pollImapMailbox(context, { ...world.t.services.config.inboundMail, imapUrl: dovecot.url });
  const messagesOf = async (conversationId: string) => {
    const response = await world.t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${conversationId}/messages?limit=100`, headers: world.cast.admin.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.messages as { role: string; content: string }[];
  };

  /** A visitor who left `email` and was mailed an operator's reply, sent: the conversation and our mail's Message-ID. */
  const mailedVisitor = async (email: string) => {
    const { t, cast } = world;
    const visitor = await world.visitorWithLead(email);
    const base = `${CONSOLE}/conversations/${visitor.conversationId}`;
    expect((await t.app.inject({ method: "POST", url: `${base}/assign`, headers: cast.admin.headers, payload: {} })).statusCode).toBeLessThan(300);
    const reply = await t.app.inject({ method: "POST", url: `${base}/messages`, headers: cast.admin.headers, payload: { content: "Hello, your refund left today" } });
    expect(reply.statusCode, reply.body).toBe(201);
    const mail = await receiver.mailTo(email);
    expect((await world.settledMailTo(email)).status).toBe("sent");
    return { conversationId: visitor.conversationId, messageId: mail.parsed.messageId ?? "" };
  };
  const mailTo = async (email: string) => (await world.outbox()).messages.find((mail) => mail.to === email)!;

  it("happy: a bounce polled by IMAP marks the visitor's mail failed with the report's status and diagnostic, shown to admins; nothing enters the conversation", async () => {
    const email = "gone@visitors.test";
    const { conversationId, messageId } = await mailedVisitor(email);
    expect(messageId).toMatch(/^<fd\.[a-z0-9]{24}@acme\.test>$/);
    const before = await messagesOf(conversationId);
    const published = world.t.published.length;
    await dovecot.deliver(deliveryReport({ to: email, returnedMessageId: messageId, action: "failed", status: "5.1.1", reportId: "<dsn-1@mx.visitors.test>" }));

    expect((await poll()).outcomes).toEqual(["bounce"]);
    const bounced = await mailTo(email);
    expect(bounced.status).toBe("failed");
    expect(bounced.last_error).toBe(`bounced: 5.1.1 (smtp; 550 5.1.1 <${email}>: Recipient address rejected: User unknown in virtual mailbox table)`);
    expect(bounced.attempts.map((attempt) => attempt.outcome)).toEqual(["sent"]);
    const outbox = await world.outbox();
    expect(outbox.counts.failed).toBeGreaterThanOrEqual(1);
    expect(outbox.notice).toMatch(/could not be delivered/);
    const failedOnly = await world.t.app.inject({ method: "GET", url: `${CONSOLE}/mail?status=failed`, headers: world.cast.admin.headers });
    expect(failedOnly.json().data.messages.map((mail: { to: string }) => mail.to)).toContain(email);

    // Never a message of the conversation, never published, never \Flagged (it was dealt with).
    expect(await messagesOf(conversationId)).toEqual(before);
    expect(world.t.published.slice(published).filter((event) => "conversationId" in event && event.conversationId === conversationId)).toEqual([]);
    expect((await dovecot.inbox()).at(-1)?.flags).toEqual(["\\Seen"]);
    const line = log.find((entry) => entry.msg === "bounce recorded: the mail is failed");
    expect(line).toMatchObject({ outcome: "bounce", conversationId, mailId: bounced.id });
    expect(JSON.stringify(log)).not.toContain(email);
    expect(JSON.stringify(log)).not.toContain("User unknown");
    const metrics = await world.t.services.metrics.getSingleMetricAsString("frontdesk_inbound_mails_total");
    expect(metrics).toContain('frontdesk_inbound_mails_total{channel="imap",outcome="bounce"} 1');
  });

  it("happy: a delayed report changes nothing; a report naming no mail of ours is unmatched", async () => {
    const email = "slow@visitors.test";
    const { conversationId, messageId } = await mailedVisitor(email);
    const before = await messagesOf(conversationId);
    await dovecot.deliver(deliveryReport({ to: email, returnedMessageId: messageId, action: "delayed", status: "4.4.7", reportId: "<dsn-2@mx.visitors.test>" }));
    const unknown = "<fd.aaaaaaaaaaaaaaaaaaaaaaaa@acme.test>";
    await dovecot.deliver(deliveryReport({ to: email, returnedMessageId: unknown, action: "failed", status: "5.1.1", reportId: "<dsn-3@mx.visitors.test>" }));
    await dovecot.deliver(deliveryReport({ to: email, returnedMessageId: "<someone-else@elsewhere.test>", action: "failed", status: "5.1.1", reportId: "<dsn-4@mx.visitors.test>" }));

    expect((await poll()).outcomes).toEqual(["automatic", "unmatched", "unmatched"]);
    const mail = await mailTo(email);
    expect(mail.status).toBe("sent");
    expect(mail.last_error).toBeNull();
    expect(await messagesOf(conversationId)).toEqual(before);
  });

  it("happy: a bounce posted raw by Mailgun with the returned headers only is recorded too", async () => {
    const email = "mailgun.gone@visitors.test";
    const { conversationId, messageId } = await mailedVisitor(email);
    const before = await messagesOf(conversationId);
    const timestamp = Math.floor(Date.now() / 1000);
    const token = `token-${Math.random().toString(36).slice(2)}`;
    const signature = createHmac("sha256", MAILGUN_KEY).update(`${timestamp}${token}`).digest("hex");
    const mime = deliveryReport({ to: email, returnedMessageId: messageId, action: "failed", status: "5.2.1", reportId: "<dsn-5@mx.visitors.test>", returned: "text/rfc822-headers" });
    const response = await world.t.app.inject({
      method: "POST",
      url: "/api/v1/inbound-mail/mailgun",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ timestamp: String(timestamp), token, signature, recipient: "support@acme.test", "body-mime": mime }).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ data: { outcome: "bounce" } });
    const mail = await mailTo(email);
    expect(mail.status).toBe("failed");
    expect(mail.last_error).toMatch(/^bounced: 5\.2\.1 \(smtp; 550 5\.2\.1 /);
    expect(await messagesOf(conversationId)).toEqual(before);
  });
});
