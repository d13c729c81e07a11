import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { queueMail } from "../../src/mail/queue-mail.js";
import { registerMailWorkers } from "../../src/mail/register-mail-workers.js";
import { CONSOLE } from "../support/console-session.js";
import { bearer, startSession } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";
import { startMailWorld, W, type MailWorld } from "./mail-world.js";
import { HangingThenForwarding, selfSignedCertificate, SmtpReceiver } from "./smtp-receiver.js";

describe("mail configuration (error)", () => {
  it("error: SMTP without a sender, a sender with a line break, or a URL that is not smtp(s) stops the start", () => {
    const problems = (environment: Record<string, string>) => {
      try {
        loadConfig(environment);
        return [];
      } catch (error) {
        return error instanceof ConfigError ? error.problems : [String(error)];
      }
    };
    expect(problems({ FRONTDESK_SMTP_URL: "smtp://127.0.0.1:25" })).toEqual([expect.stringContaining("FRONTDESK_MAIL_FROM: required")]);
    expect(problems({ FRONTDESK_MAIL_FROM: "Acme\r\nBcc: x@evil.test <a@acme.test>" })).toEqual([expect.stringContaining("FRONTDESK_MAIL_FROM")]);
    expect(problems({ FRONTDESK_SMTP_URL: "http://127.0.0.1:25", FRONTDESK_MAIL_FROM: "a@acme.test" })).toEqual([expect.stringContaining("FRONTDESK_SMTP_URL")]);
    expect(loadConfig({ FRONTDESK_SMTP_URL: "smtps://u:p@mail.acme.test", FRONTDESK_MAIL_FROM: "Acme <a@acme.test>" }).mail.from).toEqual({ address: "a@acme.test", name: "Acme" });
  });
});

describeEachStore("e-mail delivery through real SMTP servers on %s", (kind) => {
  describe("with AUTH and STARTTLS (a self-signed certificate trusted through FRONTDESK_SMTP_TLS_CA)", () => {
    let world: MailWorld;
    let receiver: SmtpReceiver;
    let certificate: Awaited<ReturnType<typeof selfSignedCertificate>>;

    beforeAll(async () => {
      certificate = await selfSignedCertificate();
      receiver = new SmtpReceiver({ auth: { user: "frontdesk", pass: "s3cret pass" }, tls: certificate, refuse: (address) => address.startsWith("refuse") });
      await receiver.start();
      world = await startMailWorld(kind, {
        FRONTDESK_SMTP_URL: `smtp://frontdesk:${encodeURIComponent("s3cret pass")}@127.0.0.1:${receiver.port}`,
        FRONTDESK_SMTP_TLS_CA: certificate.certFile,
      });
      await world.startWorkers();
    }, 120_000);
    afterAll(async () => {
      await world.close();
      await receiver.close();
      await certificate.cleanup();
    });

    it("happy: a transcript goes out over STARTTLS after AUTH, with a text and an escaped HTML part, and the log says sent", async () => {
      const visitor = await world.visitorWithLead("ada@visitors.test");
      await world.t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(visitor.jwt), payload: { message: "Is <script>alert(1)</script> shipped?" } });
      const asked = await world.t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: {} });
      expect(asked.statusCode, asked.body).toBe(202);
      expect(asked.json()).toEqual({ data: { status: "queued" } });

      const mail = await receiver.mailTo("ada@visitors.test");
      expect(mail.secure).toBe(true);
      expect(mail.user).toBe("frontdesk");
      expect(mail.envelope).toEqual({ from: "support@acme.test", to: ["ada@visitors.test"] });
      expect(mail.parsed.subject).toBe("Your conversation with Acme Assistant");
      expect(mail.parsed.from?.value).toEqual([{ address: "support@acme.test", name: "Acme Support" }]);
      expect(mail.parsed.text).toContain("You:\n> Is <script>alert(1)</script> shipped?");
      expect(mail.parsed.html).toContain("Is &lt;script&gt;alert(1)&lt;/script&gt; shipped?");
      expect(mail.parsed.html).not.toContain("<script>");
      expect(mail.parsed.html).toContain('<html lang="en" dir="ltr">');
      expect(mail.parsed.headers.get("content-language")).toBe("en");

      const logged = await world.settledMailTo("ada@visitors.test");
      expect(logged).toMatchObject({ kind: "transcript", status: "sent", attempts: [{ attempt: 1, outcome: "sent", smtp_code: 250 }] });
    });

    it("error: a refusal (550) fails the mail at once, visible to admins with the server's answer; an agent may not read the log", async () => {
      const visitor = await world.visitorWithLead("refuse-me@visitors.test");
      const asked = await world.t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: {} });
      expect(asked.statusCode, asked.body).toBe(202);
      const logged = await world.settledMailTo("refuse-me@visitors.test");
      expect(logged.status).toBe("failed");
      expect(logged.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: "refused", smtp_code: 550, detail: expect.stringContaining("mailbox unavailable") })]);
      expect(logged.last_error).toContain("refused by the SMTP server");
      const outbox = await world.outbox();
      expect(outbox.smtp_configured).toBe(true);
      expect(outbox.counts.failed).toBeGreaterThanOrEqual(1);
      expect(outbox.notice).toMatch(/could not be delivered/);

      const asAgent = await world.t.app.inject({ method: "GET", url: `${CONSOLE}/mail`, headers: world.cast.agentOperator.headers });
      expect(asAgent.statusCode).toBe(403);
      expect(asAgent.json().error.code).toBe("forbidden");
      const bad = await world.t.app.inject({ method: "GET", url: `${CONSOLE}/mail?status=lost`, headers: world.cast.admin.headers });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error).toMatchObject({ code: "validation_failed", fields: { "querystring.status": expect.any(Array) } });
    });

    it("security: a line break in a subject or a name adds no header and no recipient; addresses with one are refused", async () => {
      const { t, cast } = world;
      await t.services.db.transaction((tx) =>
        queueMail(tx, t.services.jobs, t.services.config.mail, {
          workspaceId: cast.tenant.workspaceId,
          kind: "transcript",
          to: { address: "bob@visitors.test", name: "Bob\r\nBcc: eve@attacker.test" },
          content: {
            language: "en",
            direction: "ltr",
            subject: "Hello\r\nBcc: eve@attacker.test\r\nX-Injected: yes",
            blocks: [{ kind: "paragraph", text: "Body <img src=x onerror=alert(1)>\r\n\r\n.\r\nMAIL FROM:<eve@attacker.test>" }],
          },
        }),
      );
      const mail = await receiver.mailTo("bob@visitors.test");
      expect(mail.envelope.to).toEqual(["bob@visitors.test"]);
      expect(mail.parsed.headers.has("bcc")).toBe(false);
      expect(mail.parsed.headers.has("x-injected")).toBe(false);
      expect(mail.parsed.subject).toBe("Hello Bcc: eve@attacker.test X-Injected: yes");
      expect(mail.parsed.html).toContain("Body &lt;img src=x onerror=alert(1)&gt;");
      expect(receiver.mails.some((received) => received.envelope.to.includes("eve@attacker.test"))).toBe(false);

      const visitor = await world.visitorWithLead("carol@visitors.test");
      for (const email of ["carol@visitors.test\r\nBcc: eve@attacker.test", "carol@visitors.test, eve@attacker.test", "Carol <carol@visitors.test>"]) {
        const asked = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: { email } });
        expect(asked.statusCode, email).toBe(422);
        expect(asked.json().error).toMatchObject({ code: "validation_failed", fields: { email: expect.any(Array) } });
        const lead = await t.app.inject({ method: "POST", url: `${W}/leads`, headers: bearer(visitor.jwt), payload: { email } });
        expect(lead.statusCode, email).toBe(422);
      }
    });

    it("error: a transcript without any address is 422 naming email; the fourth request within an hour is 429", async () => {
      const { t } = world;
      const session = await startSession(t.app, world.cast.tenant.agentId);
      const none = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(session.jwt), payload: {} });
      expect(none.statusCode).toBe(422);
      expect(none.json().error).toMatchObject({ code: "validation_failed", fields: { email: expect.any(Array) } });
      // The refused request counted: three an hour per conversation. The widget leaves the address first, then asks.
      const lead = await t.app.inject({ method: "POST", url: `${W}/leads`, headers: bearer(session.jwt), payload: { email: "dave@visitors.test" } });
      expect(lead.statusCode).toBe(201);
      const statuses = [];
      for (const payload of [{}, { email: "Dave@Visitors.test" }, {}]) {
        const asked = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(session.jwt), payload });
        statuses.push(asked.statusCode);
        if (asked.statusCode === 429) expect(asked.json().error.code).toBe("rate_limited");
      }
      expect(statuses).toEqual([202, 202, 429]);
      const noToken = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, payload: {} });
      expect(noToken.statusCode).toBe(401);
      expect(noToken.json().error.code).toBe("missing_token");
    });

    it("security: a transcript goes only to the lead's address; another address, with or without a lead, is 422 and nothing is queued", async () => {
      const { t } = world;
      const stranger = await startSession(t.app, world.cast.tenant.agentId);
      await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(stranger.jwt), payload: { message: "Words for someone else's inbox" } });
      const noLead = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(stranger.jwt), payload: { email: "victim@visitors.test" } });
      expect(noLead.statusCode).toBe(422);
      expect(noLead.json().error).toMatchObject({ code: "validation_failed", fields: { email: expect.any(Array) } });

      const visitor = await world.visitorWithLead("erin@visitors.test");
      const other = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: { email: "victim@visitors.test" } });
      expect(other.statusCode).toBe(422);
      expect(other.json().error).toMatchObject({ code: "validation_failed", fields: { email: ["not the address left in this conversation"] } });

      const outbox = await world.outbox();
      expect(outbox.messages.some((mail) => mail.to === "victim@visitors.test")).toBe(false);
      expect(receiver.mails.some((received) => received.envelope.to.includes("victim@visitors.test"))).toBe(false);
    });
  });

  describe("with a server that hangs, then answers", () => {
    let world: MailWorld;
    let receiver: SmtpReceiver;
    let hanging: HangingThenForwarding;

    beforeAll(async () => {
      receiver = new SmtpReceiver();
      await receiver.start();
      hanging = new HangingThenForwarding(() => receiver.port, 1);
      await hanging.start();
      world = await startMailWorld(kind, { FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${hanging.port}`, FRONTDESK_SMTP_TIMEOUT_SECONDS: "1" });
      await world.startWorkers();
    }, 120_000);
    afterAll(async () => {
      await world.close();
      await hanging.close();
      await receiver.close();
    });

    it("error: the silent server costs one attempt (a timeout), the retry delivers, and the request that queued it did not wait", async () => {
      const visitor = await world.visitorWithLead("erin@visitors.test");
      const started = Date.now();
      const asked = await world.t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: {} });
      expect(asked.statusCode).toBe(202);
      expect(Date.now() - started).toBeLessThan(1_000);
      await receiver.mailTo("erin@visitors.test", 30_000);
      const logged = await world.settledMailTo("erin@visitors.test");
      expect(logged.status).toBe("sent");
      expect(logged.attempts.map((attempt) => attempt.outcome)).toEqual(["failed", "sent"]);
      expect(logged.attempts[0]!.detail).toMatch(/timeout|ETIMEDOUT|Greeting never received/i);
      expect(hanging.connections).toBeGreaterThanOrEqual(2);
    });
  });

  describe("with no SMTP server configured (the embedded default)", () => {
    let world: MailWorld;
    let receiver: SmtpReceiver;

    beforeAll(async () => {
      receiver = new SmtpReceiver();
      await receiver.start();
      // No mail worker runs before the "restart": one without SMTP would put the released mails back.
      world = await startMailWorld(kind, {});
    }, 120_000);
    afterAll(async () => {
      await world.close();
      await receiver.close();
    });

    it("happy: mails wait in the outbox, the console says so, and they go out when a worker starts with SMTP set", async () => {
      const { t } = world;
      const visitor = await world.visitorWithLead("frank@visitors.test");
      const asked = await t.app.inject({ method: "POST", url: `${W}/conversation/transcript`, headers: bearer(visitor.jwt), payload: {} });
      expect(asked.json()).toEqual({ data: { status: "waiting" } });
      const before = await world.outbox();
      expect(before.smtp_configured).toBe(false);
      expect(before.counts.waiting).toBe(1);
      expect(before.notice).toBe("E-mail is not set up: 1 message waiting");
      expect(before.messages[0]).toMatchObject({ to: "frank@visitors.test", status: "waiting", attempts: [] });

      // The next start, with SMTP set: the same store, another configuration.
      const config = loadConfig({ FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`, FRONTDESK_MAIL_FROM: "support@acme.test", FRONTDESK_MAIL_RETRY_BASE_MS: "200" });
      const restarted = await registerMailWorkers({ ...t.services, config: { ...t.services.config, mail: config.mail } }, pino({ level: "silent" }));
      try {
        const mail = await receiver.mailTo("frank@visitors.test");
        expect(mail.parsed.subject).toBe("Your conversation with Acme Assistant");
        const sent = await world.settledMailTo("frank@visitors.test");
        expect(sent.status).toBe("sent");
      } finally {
        await restarted.close();
      }
    });
  });
});
