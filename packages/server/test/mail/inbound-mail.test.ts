import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { BusEvent } from "../../src/realtime/event-bus.js";
import { registerInboundMailMetrics } from "../../src/mail/inbound-mail-metrics.js";
import { pollImapMailbox } from "../../src/mail/poll-imap-mailbox.js";
import { registerInboundMailPoller } from "../../src/mail/register-inbound-mail-poller.js";
import type { InboundMailContext } from "../../src/mail/receive-inbound-mail.js";
import { capturedLogger, type LogLine } from "../support/captured-log.js";
import { CONSOLE } from "../support/console-session.js";
import { DovecotServer } from "../support/dovecot-server.js";
import { bearer } from "../support/seed.js";
import { describeEachNeeding } from "../support/test-legs.js";
import { legsOfStore, storeKinds } from "../support/test-database.js";
import { startMailWorld, W, type MailWorld } from "./mail-world.js";
import { selfSignedCertificate, SmtpReceiver } from "./smtp-receiver.js";

const REPLY_TO = "replies@acme.test";
const MAILGUN_KEY = "mailgun-signing-key-for-tests-0123456789";
const POSTMARK = { user: "postmark", password: "postmark-password-for-tests" };

/** A reply as a mail client writes it: the visitor's words above the quoted mail, and a signature. */
function replyMail(options: { from: string; to: string; inReplyTo?: string; messageId: string; body: string; extraHeaders?: string[] }): string {
  return [
    `From: Visitor <${options.from}>`,
    `To: ${options.to}`,
    "Subject: Re: Your conversation with Acme Assistant",
    `Message-ID: ${options.messageId}`,
    ...(options.inReplyTo ? [`In-Reply-To: ${options.inReplyTo}`, `References: ${options.inReplyTo}`] : []),
    "Date: Sat, 28 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    ...(options.extraHeaders ?? []),
    "",
    options.body,
    "",
  ].join("\r\n");
}

const QUOTED = (words: string) =>
  `${words}\r\n\r\n-- \r\nJane Visitor\r\nACME Buyer Ltd\r\n\r\nOn Sat, 28 Nov 2026 at 09:00, Acme Support <support@acme.test> wrote:\r\n> Your refund left today\r\n> Reply to this mail to answer.\r\n`;

describeEachNeeding(storeKinds, (kind) => [...legsOfStore(kind), "dovecot"])("replies by e-mail on %s", (kind) => {
  let world: MailWorld;
  let receiver: SmtpReceiver;
  let dovecot: DovecotServer;
  let context: InboundMailContext;
  let log: LogLine[];
  let logger: Logger;

  beforeAll(async () => {
    receiver = new SmtpReceiver();
    await receiver.start();
    dovecot = new DovecotServer();
    await dovecot.start();
    world = await startMailWorld(kind, {
      FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`,
      FRONTDESK_MAIL_REPLY_TO: REPLY_TO,
      FRONTDESK_IMAP_URL: dovecot.url,
      FRONTDESK_IMAP_POLL_SECONDS: "86400",
      FRONTDESK_INBOUND_MAIL_MAX_BYTES: "20000",
      FRONTDESK_INBOUND_MAILGUN_SIGNING_KEY: MAILGUN_KEY,
      FRONTDESK_INBOUND_POSTMARK_CREDENTIALS: `${POSTMARK.user}:${POSTMARK.password}`,
    });
    await world.startWorkers();
    const captured = capturedLogger();
    log = captured.lines;
    logger = captured.logger;
    context = { services: world.t.services, logger: captured.logger, metrics: registerInboundMailMetrics(world.t.services.metrics) };
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
    await dovecot?.close();
  });

  const poll = () => pollImapMailbox(context, { ...world.t.services.config.inboundMail, imapUrl: dovecot.url });
  const console = (path: string) => world.t.app.inject({ method: "GET", url: `${CONSOLE}${path}`, headers: world.cast.admin.headers });
  const messagesOf = async (conversationId: string) => {
    const response = await console(`/conversations/${conversationId}/messages?limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.messages as { role: string; content: string; code?: string }[];
  };
  const busSince = (from: number, conversationId: string): BusEvent[] => world.t.published.slice(from).filter((event) => "conversationId" in event && event.conversationId === conversationId);

  /** A visitor who left `email`, whose conversation `state` the admin left it in after replying; the mail that reply sent them. */
  const mailedVisitor = async (email: string, state: "human" | "closed" | "bot" = "human") => {
    const { t, cast } = world;
    const visitor = await world.visitorWithLead(email);
    const base = `${CONSOLE}/conversations/${visitor.conversationId}`;
    expect((await t.app.inject({ method: "POST", url: `${base}/assign`, headers: cast.admin.headers, payload: {} })).statusCode).toBeLessThan(300);
    const reply = await t.app.inject({ method: "POST", url: `${base}/messages`, headers: cast.admin.headers, payload: { content: `Hello ${email}, your refund left today` } });
    expect(reply.statusCode, reply.body).toBe(201);
    const mail = await receiver.mailTo(email);
    if (state === "closed") expect((await t.app.inject({ method: "POST", url: `${base}/close`, headers: cast.admin.headers, payload: {} })).statusCode).toBeLessThan(300);
    if (state === "bot") expect((await t.app.inject({ method: "POST", url: `${base}/release`, headers: cast.admin.headers, payload: {} })).statusCode).toBeLessThan(300);
    const replyTo = mail.parsed.replyTo?.value[0]?.address ?? "";
    const messageId = mail.parsed.messageId ?? "";
    return { visitor, replyTo, messageId };
  };

  it("happy: the mail to the visitor has a Message-ID and a Reply-To naming it; their reply, polled twice, enters the conversation once, quotes and signature stripped, live", async () => {
    const email = "jane.reply@visitors.test";
    const { visitor, replyTo, messageId } = await mailedVisitor(email);
    expect(replyTo).toMatch(/^replies\+[a-z0-9]{24}@acme\.test$/);
    expect(messageId).toMatch(/^<fd\.[a-z0-9]{24}@acme\.test>$/);
    expect(replyTo.slice(8, 32)).toBe(messageId.slice(4, 28));
    const from = world.t.published.length;
    await dovecot.deliver(replyMail({ from: "Jane.Reply@Visitors.test", to: replyTo, inReplyTo: messageId, messageId: "<reply-1@visitors.test>", body: QUOTED("Thanks, <b>which</b> carrier is it?") }));

    expect((await poll()).outcomes).toEqual(["stored"]);
    expect((await poll()).outcomes).toEqual([]);
    // Delivered again (a client that sent it twice): the same Message-ID is not stored twice.
    await dovecot.deliver(replyMail({ from: email, to: replyTo, messageId: "<reply-1@visitors.test>", body: "Thanks, <b>which</b> carrier is it?" }));
    expect((await poll()).outcomes).toEqual(["duplicate"]);

    const visitorMessages = (await messagesOf(visitor.conversationId)).filter((message) => message.role === "visitor");
    expect(visitorMessages.map((message) => message.content)).toEqual(["Thanks, <b>which</b> carrier is it?"]);
    const created = busSince(from, visitor.conversationId).filter((event) => event.type === "message.created");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ message: { role: "visitor", content: "Thanks, <b>which</b> carrier is it?" } });
    // Still the operator's: no bot answer, no state change; the assignee's unseen-message check is queued.
    const detail = (await console(`/conversations/${visitor.conversationId}`)).json().data;
    expect(detail.status).toBe("human");
    // The check waits no time here (FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS=0): it is either still queued
    // or has already run and mailed the assignee, whichever the workers have reached.
    const { rows: checks } = await world.t.services.db.query(
      `SELECT 'check' AS what FROM mail_checks WHERE conversation_id = $1 AND kind = 'unseen_by_operator'
       UNION ALL SELECT 'mail' FROM mail_messages WHERE conversation_id = $1 AND kind = 'operator_unseen'`,
      [visitor.conversationId],
    );
    expect(checks.length).toBe(1);
    expect((await dovecot.inbox()).map((mail) => mail.flags)).toEqual([["\\Seen"], ["\\Seen"]]);
    expect(log.some((line) => line.msg === "reply by e-mail stored in its conversation" && line.conversationId === visitor.conversationId)).toBe(true);
    // Still answered from the widget as before.
    const widget = await world.t.app.inject({ method: "GET", url: `${W}/conversation/messages`, headers: bearer(visitor.jwt) });
    expect(widget.json().data.messages.some((message: { content: string }) => message.content === "Thanks, <b>which</b> carrier is it?")).toBe(true);
  });

  it("happy: the workers' pollers take a reply on their own; two processes polling together store it once", async () => {
    const email = "polled.reply@visitors.test";
    const { visitor, replyTo } = await mailedVisitor(email);
    const { services } = world.t;
    const fast = { ...services, config: { ...services.config, inboundMail: { ...services.config.inboundMail, imapPollMs: 100 } } };
    await dovecot.deliver(replyMail({ from: email, to: replyTo, messageId: "<polled-1@visitors.test>", body: "Found by the poller." }));
    const pollers = [registerInboundMailPoller(fast, logger), registerInboundMailPoller(fast, logger)];
    try {
      await expect.poll(async () => (await messagesOf(visitor.conversationId)).filter((message) => message.role === "visitor").length, { timeout: 15_000, interval: 100 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      for (const poller of pollers) await poller.close();
    }
    expect((await messagesOf(visitor.conversationId)).filter((message) => message.role === "visitor").map((message) => message.content)).toEqual(["Found by the poller."]);
    expect((await dovecot.inbox()).at(-1)?.flags).toEqual(["\\Seen"]);
  });

  it("security: with imap:// the poll logs in only after STARTTLS, checking the server's certificate against FRONTDESK_IMAP_TLS_CA", async () => {
    const certificate = await selfSignedCertificate();
    const secured = new DovecotServer({ key: certificate.key, cert: certificate.cert });
    try {
      await secured.start();
      const email = "tls.reply@visitors.test";
      const { visitor, replyTo } = await mailedVisitor(email);
      await secured.deliver(replyMail({ from: email, to: replyTo, messageId: "<tls-1@visitors.test>", body: "Over TLS." }));
      const settings = { ...world.t.services.config.inboundMail, imapUrl: secured.url };
      // Not trusted by the system's authorities: no login, nothing taken.
      await expect(pollImapMailbox(context, { ...settings, imapTlsCaFile: null })).rejects.toThrow();
      expect((await secured.inbox())[0]?.flags).not.toContain("\\Seen");
      expect((await pollImapMailbox(context, { ...settings, imapTlsCaFile: certificate.certFile })).outcomes).toEqual(["stored"]);
      expect((await messagesOf(visitor.conversationId)).filter((message) => message.role === "visitor").map((message) => message.content)).toEqual(["Over TLS."]);
    } finally {
      await secured.close();
      await certificate.cleanup();
    }
  });

  it("happy: a reply to a closed conversation (matched by In-Reply-To alone) reopens it for a person, not the bot", async () => {
    const email = "closed.reply@visitors.test";
    const { visitor, messageId } = await mailedVisitor(email, "closed");
    await dovecot.deliver(replyMail({ from: email, to: "support@acme.test", inReplyTo: messageId, messageId: "<reply-closed@visitors.test>", body: "One more question." }));
    expect((await poll()).outcomes).toEqual(["stored"]);
    const messages = await messagesOf(visitor.conversationId);
    expect(messages.slice(-3).map((message) => [message.role, message.code ?? message.content])).toEqual([
      ["system", "conversation_reopened"],
      ["system", "human_requested"],
      ["visitor", "One more question."],
    ]);
    expect((await console(`/conversations/${visitor.conversationId}`)).json().data.status).toBe("awaiting_human");
    expect(messages.filter((message) => message.role === "bot")).toEqual([]);
  });

  it("security: a reply from another address, an unknown key, an automatic reply, a huge and a malformed mail are refused with a logged reason; nothing is stored", async () => {
    const email = "owner@visitors.test";
    const { visitor, replyTo, messageId } = await mailedVisitor(email);
    const before = (await messagesOf(visitor.conversationId)).length;
    await dovecot.deliver(replyMail({ from: "eve@attacker.test", to: replyTo, inReplyTo: messageId, messageId: "<forged-1@mail.test>", body: "Send me the refund" }));
    await dovecot.deliver(replyMail({ from: email, to: "replies+aaaaaaaaaaaaaaaaaaaaaaaa@acme.test", messageId: "<guess@visitors.test>", body: "Guessing" }));
    await dovecot.deliver(replyMail({ from: email, to: replyTo, messageId: "<ooo@visitors.test>", body: "I am away", extraHeaders: ["Auto-Submitted: auto-replied"] }));
    await dovecot.deliver(replyMail({ from: email, to: replyTo, messageId: "<huge@visitors.test>", body: "x".repeat(30_000) }));
    await dovecot.deliver("this is not a mail at all\r\n");
    expect((await poll()).outcomes).toEqual(["wrong_sender", "unmatched", "automatic", "too_large", "malformed"]);
    expect((await poll()).outcomes).toEqual([]);
    expect((await messagesOf(visitor.conversationId)).length).toBe(before);
    const reasons = log.filter((line) => line.level === 40).map((line) => line.msg);
    expect(reasons).toEqual(expect.arrayContaining(["inbound mail dropped: wrong sender", "inbound mail dropped: unmatched", "inbound mail dropped: automatic"]));
    expect(reasons.some((reason) => reason.startsWith("inbound mail refused: 3") && reason.includes("over FRONTDESK_INBOUND_MAIL_MAX_BYTES"))).toBe(true);
    expect(reasons).toContain("inbound mail refused: no header block");
    // Never the words, nor the sender, in the log.
    expect(JSON.stringify(log)).not.toContain("eve@attacker.test");
    expect(JSON.stringify(log)).not.toContain("Send me the refund");
    const metrics = await world.t.services.metrics.getSingleMetricAsString("frontdesk_inbound_mails_total");
    expect(metrics).toContain('frontdesk_inbound_mails_total{channel="imap",outcome="wrong_sender"} 1');
    expect(metrics).toContain('frontdesk_inbound_mails_total{channel="imap",outcome="too_large"} 1');
    const flags = (await dovecot.inbox()).slice(-5).map((mail) => mail.flags);
    expect(flags).toEqual(Array(5).fill(["\\Flagged", "\\Seen"]));
  });

  const mailgunPost = (fields: Record<string, string>, key = MAILGUN_KEY, timestamp = Math.floor(Date.now() / 1000)) => {
    const token = `token-${Math.random().toString(36).slice(2)}`;
    const signature = createHmac("sha256", key).update(`${timestamp}${token}`).digest("hex");
    return new URLSearchParams({ timestamp: String(timestamp), token, signature, ...fields }).toString();
  };
  const postMailgun = (body: string) =>
    world.t.app.inject({ method: "POST", url: "/api/v1/inbound-mail/mailgun", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: body });

  it("happy: Mailgun's signed posts, parsed or raw MIME, enter the conversation; a bad signature is 401 and a dropped mail is still 200", async () => {
    const email = "mailgun.reply@visitors.test";
    const { visitor, replyTo, messageId } = await mailedVisitor(email);
    const parsed = mailgunPost({
      recipient: replyTo,
      from: `Visitor <${email}>`,
      sender: email,
      subject: "Re: hello",
      "body-plain": "Parsed by Mailgun.\n\nOn Sat, 28 Nov 2026 at 09:00, Acme <support@acme.test> wrote:\n> old\n",
      "message-headers": JSON.stringify([["Message-Id", "<mg-1@visitors.test>"], ["In-Reply-To", messageId]]),
    });
    const stored = await postMailgun(parsed);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ data: { outcome: "stored" } });
    expect((await postMailgun(parsed)).json()).toEqual({ data: { outcome: "duplicate" } });
    const raw = mailgunPost({ recipient: replyTo, "body-mime": replyMail({ from: email, to: replyTo, messageId: "<mg-2@visitors.test>", body: QUOTED("Raw from Mailgun.") }) });
    expect((await postMailgun(raw)).json()).toEqual({ data: { outcome: "stored" } });
    // With an attachment Mailgun posts multipart/form-data: the file is counted, never kept.
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(
      mailgunPost({ recipient: replyTo, from: email, "body-plain": "With a file.", "message-headers": JSON.stringify([["Message-Id", "<mg-3@visitors.test>"]]) }),
    )) {
      form.append(name, value);
    }
    form.append("attachment-1", new Blob(["%PDF-1.4"], { type: "application/pdf" }), "invoice.pdf");
    const multipart = new Request("http://localhost/", { method: "POST", body: form });
    const withFile = await world.t.app.inject({
      method: "POST",
      url: "/api/v1/inbound-mail/mailgun",
      headers: { "content-type": multipart.headers.get("content-type") ?? "" },
      payload: Buffer.from(await multipart.arrayBuffer()),
    });
    expect(withFile.statusCode, withFile.body).toBe(200);
    expect(withFile.json()).toEqual({ data: { outcome: "stored" } });
    const notAMail = await postMailgun(mailgunPost({ recipient: replyTo, "body-mime": "no headers, no mail" }));
    expect(notAMail.json()).toEqual({ data: { outcome: "malformed" } });
    const stranger = mailgunPost({ recipient: replyTo, from: "eve@attacker.test", "body-plain": "hi", "message-headers": "[]" });
    expect((await postMailgun(stranger)).json()).toEqual({ data: { outcome: "wrong_sender" } });

    const forged = mailgunPost({ recipient: replyTo, from: email, "body-plain": "forged" }, "another-key-entirely-0123456789");
    const refused = await postMailgun(forged);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe("invalid_signature");
    const stale = await postMailgun(mailgunPost({ recipient: replyTo, from: email, "body-plain": "stale" }, MAILGUN_KEY, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.statusCode).toBe(401);
    const unsigned = await postMailgun(new URLSearchParams({ from: email, "body-plain": "no signature" }).toString());
    expect(unsigned.statusCode).toBe(401);
    const invalid = await postMailgun(mailgunPost({ "attachment-count": "x".repeat(50) }));
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error.code).toBe("validation_failed");
    const huge = await postMailgun(mailgunPost({ recipient: replyTo, from: email, "body-plain": "y".repeat(50_000) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe("payload_too_large");

    expect((await messagesOf(visitor.conversationId)).filter((message) => message.role === "visitor").map((message) => message.content)).toEqual(["Parsed by Mailgun.", "Raw from Mailgun.", "With a file."]);
    const metrics = await world.t.services.metrics.getSingleMetricAsString("frontdesk_inbound_mails_total");
    expect(metrics).toContain('frontdesk_inbound_mails_total{channel="mailgun",outcome="unauthenticated"} 3');
    expect(metrics).toContain('frontdesk_inbound_mails_total{channel="mailgun",outcome="too_large"} 1');
  });

  it("happy: Postmark's posts with the basic-auth credentials enter the conversation; other credentials are 401", async () => {
    const email = "postmark.reply@visitors.test";
    const { visitor, replyTo } = await mailedVisitor(email);
    const payload = {
      MessageID: "8f1c7a1e-postmark",
      FromFull: { Email: email, Name: "Visitor" },
      ToFull: [{ Email: replyTo, MailboxHash: replyTo.slice(8, 32) }],
      Headers: [{ Name: "Message-ID", Value: "<pm-1@visitors.test>" }],
      TextBody: "",
      HtmlBody: "<p>From <b>Postmark</b> &amp; HTML only</p><script>alert(1)</script><blockquote>old</blockquote>",
      Attachments: [{ Name: "invoice.pdf", Content: "JVBERi0=", ContentType: "application/pdf" }],
    };
    const auth = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });
    const stored = await world.t.app.inject({ method: "POST", url: "/api/v1/inbound-mail/postmark", headers: auth(POSTMARK.user, POSTMARK.password), payload });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ data: { outcome: "stored" } });
    const wrong = await world.t.app.inject({ method: "POST", url: "/api/v1/inbound-mail/postmark", headers: auth(POSTMARK.user, "not-the-password-at-all"), payload });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe("invalid_signature");
    const none = await world.t.app.inject({ method: "POST", url: "/api/v1/inbound-mail/postmark", payload });
    expect(none.statusCode).toBe(401);
    const contents = (await messagesOf(visitor.conversationId)).filter((message) => message.role === "visitor").map((message) => message.content);
    expect(contents).toHaveLength(1);
    expect(contents[0]).toContain("From Postmark & HTML only");
    expect(contents[0]).not.toContain("<");
    expect(contents[0]).not.toContain("alert");
  });

  it("security: erasure leaves no receipt of a visitor's replies, and a later reply to their old mail matches nothing", async () => {
    const email = "forget.me@visitors.test";
    const { visitor, replyTo, messageId } = await mailedVisitor(email);
    await dovecot.deliver(replyMail({ from: email, to: replyTo, inReplyTo: messageId, messageId: "<forget-1@visitors.test>", body: "Please forget me." }));
    expect((await poll()).outcomes).toEqual(["stored"]);
    const receipts = async () => (await world.t.services.db.query(`SELECT 1 FROM mail_inbound WHERE visitor_id = $1`, [visitor.visitorId])).rows.length;
    expect(await receipts()).toBe(1);
    const erased = await world.t.app.inject({ method: "DELETE", url: `${W}/me`, headers: bearer(visitor.jwt) });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    expect(await receipts()).toBe(0);
    await dovecot.deliver(replyMail({ from: email, to: replyTo, inReplyTo: messageId, messageId: "<forget-2@visitors.test>", body: "Again." }));
    expect((await poll()).outcomes).toEqual(["unmatched"]);
  });
});

