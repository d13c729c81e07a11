import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, startSession, type StartedSession } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";
import { startMailWorld, W, type MailWorld } from "./mail-world.js";
import { SmtpReceiver } from "./smtp-receiver.js";

describeEachStore("operators and visitors reached by e-mail when away, on %s", (kind) => {
  let world: MailWorld;
  let receiver: SmtpReceiver;

  beforeAll(async () => {
    receiver = new SmtpReceiver();
    await receiver.start();
    world = await startMailWorld(kind, { FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${receiver.port}` });
    await world.startWorkers();
  }, 120_000);
  afterAll(async () => {
    await world.close();
    await receiver.close();
  });

  const post = async (session: StartedSession, path: string, payload: Record<string, unknown>) => {
    const response = await world.t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(session.jwt), payload });
    expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const choose = async (headers: Record<string, string>, email_alerts: string) =>
    world.t.app.inject({ method: "PATCH", url: `${CONSOLE}/me/preferences`, headers, payload: { email_alerts } });
  const mailsTo = (address: string) => receiver.mails.filter((mail) => mail.envelope.to.includes(address));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));
  const resumeTokenOf = (text: string) => /#frontdesk_resume=([\w.-]+)/.exec(text)?.[1];
  const init = async (agentId: string, body: Record<string, unknown>) => {
    const response = await world.t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: SITE_ORIGIN }, payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/`, ...body } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { conversation_id: string; visitor_id: string; anonymous_id: string; jwt: string; messages: { role: string; content: string }[] };
  };

  it("happy: each operator chooses every alert, a digest or none on their profile; bad choices are refused", async () => {
    const { cast, t } = world;
    const read = await t.app.inject({ method: "GET", url: `${CONSOLE}/me/preferences`, headers: cast.admin.headers });
    expect(read.json()).toEqual({ data: { email_alerts: "every" } });
    const none = await choose(cast.agentOperator.headers, "none");
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ data: { email_alerts: "none" } });
    const bad = await choose(cast.agentOperator.headers, "sometimes");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatchObject({ code: "validation_failed", fields: { email_alerts: expect.any(Array) } });
    const noOrigin = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/me/preferences`, headers: { cookie: cast.agentOperator.headers.cookie }, payload: { email_alerts: "every" } });
    expect(noOrigin.statusCode).toBe(403);
    expect(noOrigin.json().error.code).toBe("csrf_origin_mismatch");
    const anonymous = await t.app.inject({ method: "GET", url: `${CONSOLE}/me/preferences` });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me/preferences`, headers: cast.agentOperator.headers })).json()).toEqual({ data: { email_alerts: "none" } });
  });

  it("happy: a visitor asking for a person with nobody online e-mails every operator who wants it: reason, page, link; words escaped", async () => {
    const { cast, t } = world;
    const visitor = await startSession(t.app, cast.tenant.agentId);
    await post(visitor, "/messages", { message: "Where is my order?" });
    await post(visitor, "/request-human", { reason: "Refund <b>now</b>\r\nBcc: eve@attacker.test" });

    const mail = await receiver.mailTo(cast.admin.operator.email);
    expect(mail.parsed.subject).toBe("A visitor is asking for a person (Acme Assistant)");
    expect(mail.parsed.text).toContain("A visitor talking to Acme Assistant asked for a person, and no operator is online.");
    expect(mail.parsed.text).toContain("Reason: Refund <b>now</b>");
    expect(mail.parsed.text).toContain(`Page: ${SITE_ORIGIN}/products/1`);
    expect(mail.parsed.text).toContain(`Open the conversation: ${t.services.config.publicUrl}/console/inbox/${visitor.conversationId}`);
    expect(mail.parsed.html).toContain("Refund &lt;b&gt;now&lt;/b&gt;");
    expect(mail.parsed.html).toContain(`href="${t.services.config.publicUrl}/console/inbox/${visitor.conversationId}"`);
    expect(mail.parsed.headers.has("bcc")).toBe(false);
    await settle();
    // The agent chose none; the other workspace's admin is not of this workspace.
    expect(mailsTo(cast.agentOperator.operator.email)).toEqual([]);
    expect(mailsTo(cast.outsider.operator.email)).toEqual([]);
    expect(mailsTo("eve@attacker.test")).toEqual([]);
  });

  it("happy: an operator who chose the digest gets the alerts gathered in one hourly mail, without the visitors' words", async () => {
    const { cast, t } = world;
    expect((await choose(cast.agentOperator.headers, "digest")).statusCode).toBe(200);
    for (const words of ["first private words", "second private words"]) {
      const visitor = await startSession(t.app, cast.tenant.agentId);
      await post(visitor, "/request-human", { reason: words });
    }
    await expect.poll(async () => (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_digest_items WHERE operator_id = $1`, [cast.agentOperator.operator.id])).rows[0]!.n, { timeout: 15_000 }).toBe(2);
    expect(mailsTo(cast.agentOperator.operator.email)).toEqual([]);
    await t.services.jobs.send("send-mail-digests", {});
    const digest = await receiver.mailTo(cast.agentOperator.operator.email);
    expect(digest.parsed.subject).toBe("2 conversations need you");
    expect(digest.parsed.text).toContain("While you were away, these conversations needed a person:");
    expect(digest.parsed.text).not.toContain("private words");
    expect((digest.parsed.text ?? "").match(/Open the conversation: /g)).toHaveLength(2);
    expect((await choose(cast.agentOperator.headers, "none")).statusCode).toBe(200);
  });

  it("happy: an operator's reply reaches the visitor who left, and its link resumes the same conversation; the assignee hears of the visitor's answer; erasure leaves no mail", async () => {
    const { cast, t } = world;
    const visitor = await world.visitorWithLead("gina@visitors.test");
    await post(visitor, "/request-human", { reason: "Where is my refund?" });
    const assigned = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/assign`, headers: cast.admin.headers, payload: {} });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const replied = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/messages`, headers: cast.admin.headers, payload: { content: "Your refund left today <3" } });
    expect(replied.statusCode, replied.body).toBe(201);

    const mail = await receiver.mailTo("gina@visitors.test");
    const adminName = cast.admin.operator.name;
    expect(mail.parsed.subject).toBe(`${adminName} replied to you (Acme Assistant)`);
    expect(mail.parsed.text).toContain(`${adminName} replied while you were away:`);
    expect(mail.parsed.text).toContain("> Your refund left today <3");
    expect(mail.parsed.html).toContain("Your refund left today &lt;3");
    const token = resumeTokenOf(mail.parsed.text ?? "");
    expect(token).toBeDefined();
    expect(mail.parsed.text).toContain(`${SITE_ORIGIN}/products/1#frontdesk_resume=${token}`);

    // Another browser (no anon_id) opens the link: the same conversation, as its visitor, with the reply.
    const resumed = await init(cast.tenant.agentId, { resume_token: token });
    expect(resumed.conversation_id).toBe(visitor.conversationId);
    expect(resumed.visitor_id).toBe(visitor.visitorId);
    expect(resumed.messages.some((message) => message.role === "operator" && message.content === "Your refund left today <3")).toBe(true);
    const state = await t.app.inject({ method: "GET", url: `${W}/conversation`, headers: bearer(resumed.jwt) });
    expect(state.json().data.status).toBe("human");

    // The visitor answers; the assignee, who has not read it, is e-mailed.
    await post({ ...visitor, jwt: resumed.jwt }, "/messages", { message: "Thanks, which carrier?" });
    const waitingSubject = "A visitor is waiting for your answer (Acme Assistant)";
    await expect.poll(() => mailsTo(cast.admin.operator.email).some((received) => received.parsed.subject === waitingSubject), { timeout: 20_000 }).toBe(true);
    const waiting = mailsTo(cast.admin.operator.email).find((received) => received.parsed.subject === waitingSubject)!;
    expect(waiting.parsed.text).toContain("Last message: Thanks, which carrier?");

    // The visitor asks for the transcript too; then erases themselves: no mail of theirs is left, nor anything pending.
    await post({ ...visitor, jwt: resumed.jwt }, "/conversation/transcript", {});
    await world.settledMailTo("gina@visitors.test");
    const about = async () =>
      (
        await t.services.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM mail_messages WHERE visitor_id = $1 OR conversation_id = $2)
                + (SELECT count(*) FROM mail_attempts a JOIN mail_messages m ON m.id = a.mail_id WHERE m.visitor_id = $1 OR m.conversation_id = $2)
                + (SELECT count(*) FROM mail_checks WHERE visitor_id = $1 OR conversation_id = $2)
                + (SELECT count(*) FROM mail_digest_items WHERE visitor_id = $1 OR conversation_id = $2) AS n`,
          [visitor.visitorId, visitor.conversationId],
        )
      ).rows[0]!.n;
    expect(Number(await about())).toBeGreaterThan(3);
    const erased = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: { ...bearer(resumed.jwt), origin: SITE_ORIGIN } });
    expect(erased.statusCode).toBe(204);
    expect(Number(await about())).toBe(0);
    const anywhere = await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_messages m WHERE strpos(m::text, $1) > 0 OR strpos(m::text, $2) > 0`,
      ["gina@visitors.test", "Where is my refund?"],
    );
    expect(anywhere.rows[0]!.n).toBe(0);
    // The link opens nothing now: init goes on as without it.
    const after = await init(cast.tenant.agentId, { resume_token: token });
    expect(after.conversation_id).not.toBe(visitor.conversationId);
  });

  it("security: an altered, foreign or expired resume token reopens nothing", async () => {
    const { cast, t } = world;
    const visitor = await world.visitorWithLead("hugo@visitors.test");
    await post(visitor, "/request-human", {});
    await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/assign`, headers: cast.admin.headers, payload: {} });
    await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/messages`, headers: cast.admin.headers, payload: { content: "Hello Hugo" } });
    const token = resumeTokenOf((await receiver.mailTo("hugo@visitors.test")).parsed.text ?? "")!;
    const altered = `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`;
    expect((await init(cast.tenant.agentId, { resume_token: altered })).conversation_id).not.toBe(visitor.conversationId);
    expect((await init(cast.other.agentId, { resume_token: token })).conversation_id).not.toBe(visitor.conversationId);
    const malformed = await t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: SITE_ORIGIN }, payload: { agent_id: cast.tenant.agentId, page_url: `${SITE_ORIGIN}/`, resume_token: "not a token!" } });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().error).toMatchObject({ code: "validation_failed", fields: { resume_token: expect.any(Array) } });
    t.clock.offsetMs = 8 * 24 * 60 * 60 * 1000;
    try {
      expect((await init(cast.tenant.agentId, { resume_token: token })).conversation_id).not.toBe(visitor.conversationId);
    } finally {
      t.clock.offsetMs = 0;
    }
    expect((await init(cast.tenant.agentId, { resume_token: token })).conversation_id).toBe(visitor.conversationId);
  });
});
