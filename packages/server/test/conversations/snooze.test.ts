import { afterAll, beforeAll, expect, it } from "vitest";
import { pino } from "pino";
import { receiveVisitorEmailReply } from "../../src/conversations/receive-visitor-email-reply.js";
import { registerSnoozeWorker } from "../../src/conversations/register-snooze-worker.js";
import { wakeSnoozedConversation } from "../../src/conversations/wake-snoozed-conversation.js";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { bearer, startSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
const HOUR = 60 * 60 * 1000;

/**
 * Snoozing a conversation (issue 33, part 6): out of the inbox's open view until a time (a
 * wake-up job, run here by hand with the service's clock moved) or the visitor's next message.
 */
describeEachStore("snoozing a conversation until a time or the visitor's next message (%s)", (kind) => {
  let t: TestApp;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" });
    cast = await seedConsoleCast(t);
  }, 60_000);
  afterAll(() => t?.close());

  /** A visitor's conversation that asked something (so the inbox lists it). */
  async function conversation() {
    const session = await startSession(t.app, cast.tenant.agentId);
    const asked = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "Hello, anyone there?" } });
    expect(asked.statusCode, asked.body).toBe(200);
    return session;
  }

  const snooze = (conversationId: string, until: unknown, headers = cast.agentOperator.headers) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${conversationId}/snooze`, headers, payload: { until } });
  const unsnooze = (conversationId: string, headers = cast.agentOperator.headers) =>
    t.app.inject({ method: "DELETE", url: `${CONSOLE}/conversations/${conversationId}/snooze`, headers });
  const listed = async (query: string) => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations?${query}&limit=100`, headers: cast.agentOperator.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; snooze: { until: string | null } | null }[];
  };
  const inOpenView = async (conversationId: string) => (await listed("status=bot,awaiting_human,human&snoozed=false")).some((item) => item.id === conversationId);
  const inSnoozedView = async (conversationId: string) => (await listed("snoozed=true")).some((item) => item.id === conversationId);
  const wakeJobs = async (conversationId: string) =>
    (
      await t.services.db.query<{ data: { snoozeId: string; workspaceId: string; conversationId: string } }>(
        `SELECT data FROM pgboss.job WHERE name = 'wake-snoozed-conversation' AND data->>'conversationId' = $1 ORDER BY created_on`,
        [conversationId],
      )
    ).rows.map((row) => row.data);
  const snoozeEvents = (from: number, conversationId: string) =>
    t.published.slice(from).filter((event) => event.type === "conversation.snoozed" && event.conversationId === conversationId);

  it("happy: snoozed for an hour it leaves the open view for the snoozed one, and its wake-up job brings it back when the time comes", async () => {
    const session = await conversation();
    const published = t.published.length;
    const until = new Date(t.services.now().getTime() + HOUR).toISOString();
    const snoozed = await snooze(session.conversationId, until);
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    expect(snoozed.json()).toEqual({ data: { conversation_id: session.conversationId, snooze: { until } } });
    expect(await inOpenView(session.conversationId)).toBe(false);
    expect(await inSnoozedView(session.conversationId)).toBe(true);
    const detail = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}`, headers: cast.admin.headers });
    expect(detail.json().data.snooze).toEqual({ until });

    // The job was queued in the snooze's transaction, to start at its time.
    const [job] = await wakeJobs(session.conversationId);
    expect(job).toMatchObject({ workspaceId: cast.tenant.workspaceId, conversationId: session.conversationId });
    const { rows } = await t.services.db.query<{ start_after: Date }>(`SELECT start_after FROM pgboss.job WHERE name = 'wake-snoozed-conversation' AND data->>'conversationId' = $1`, [session.conversationId]);
    expect(new Date(rows[0]!.start_after).toISOString()).toBe(until);

    // Run before its time (a worker's clock ahead), it changes nothing and sends itself again.
    expect(await wakeSnoozedConversation(t.services, job!)).toBe("not_due");
    expect(await inOpenView(session.conversationId)).toBe(false);

    t.clock.offsetMs += HOUR + 1000;
    try {
      expect(await wakeSnoozedConversation(t.services, job!)).toBe("woken");
      expect(await inOpenView(session.conversationId)).toBe(true);
      expect(await inSnoozedView(session.conversationId)).toBe(false);
      // Run again (a duplicate, or the copy it sent), nothing more happens.
      expect(await wakeSnoozedConversation(t.services, job!)).toBe("nothing");
    } finally {
      t.clock.offsetMs -= HOUR + 1000;
    }
    const events = snoozeEvents(published, session.conversationId);
    expect(events.map((event) => (event.type === "conversation.snoozed" ? [event.snoozed, event.cause] : null))).toEqual([
      [true, "snoozed"],
      [false, "time"],
    ]);
    // Told on the workspace's channel only: the visitor's channel never hears of a snooze.
    for (const event of events) expect(broadcastsOf(event).map((broadcast) => broadcast.channel)).toEqual([`private-workspace.${cast.tenant.workspaceId}`]);
  });

  it("happy: snoozed until the visitor replies, it comes back with their next message (and a timed snooze too, whichever comes first)", async () => {
    const session = await conversation();
    const published = t.published.length;
    const snoozed = await snooze(session.conversationId, "visitor_reply");
    expect(snoozed.json().data.snooze).toEqual({ until: null });
    expect(await wakeJobs(session.conversationId)).toEqual([]);
    expect((await listed("snoozed=true")).find((item) => item.id === session.conversationId)?.snooze).toEqual({ until: null });
    const replied = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "Still there?" } });
    expect(replied.statusCode).toBe(200);
    expect(await inOpenView(session.conversationId)).toBe(true);
    expect(snoozeEvents(published, session.conversationId).map((event) => (event.type === "conversation.snoozed" ? event.cause : null))).toEqual(["snoozed", "visitor_message"]);

    // Timed, and the visitor writes first: back at once, and the job later finds nothing to do.
    await snooze(session.conversationId, new Date(t.services.now().getTime() + 3 * HOUR).toISOString());
    const [job] = await wakeJobs(session.conversationId);
    await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "Hello again" } });
    expect(await inOpenView(session.conversationId)).toBe(true);
    t.clock.offsetMs += 3 * HOUR + 1000;
    try {
      expect(await wakeSnoozedConversation(t.services, job!)).toBe("nothing");
    } finally {
      t.clock.offsetMs -= 3 * HOUR + 1000;
    }
  });

  it("happy: a visitor's reply by e-mail ends the snooze as a message from the widget does", async () => {
    const session = await conversation();
    await snooze(session.conversationId, "visitor_reply");
    expect(await inSnoozedView(session.conversationId)).toBe(true);
    const received = await receiveVisitorEmailReply(
      t.services,
      { workspaceId: cast.tenant.workspaceId, conversationId: session.conversationId, visitorId: session.visitorId, content: "Replying by mail" },
      async () => true,
    );
    expect(received.stored).toBe(true);
    expect(await inSnoozedView(session.conversationId)).toBe(false);
    expect(await inOpenView(session.conversationId)).toBe(true);
  });

  it("happy: unsnoozed early it is back at once and its job is ignored; snoozed again, only the new snooze's job wakes it", async () => {
    const session = await conversation();
    await snooze(session.conversationId, new Date(t.services.now().getTime() + HOUR).toISOString());
    const back = await unsnooze(session.conversationId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ data: { conversation_id: session.conversationId, snooze: null } });
    expect(await inOpenView(session.conversationId)).toBe(true);
    // Unsnoozing what is not snoozed changes nothing.
    expect((await unsnooze(session.conversationId)).statusCode).toBe(200);

    await snooze(session.conversationId, new Date(t.services.now().getTime() + 2 * HOUR).toISOString());
    const [first, second] = await wakeJobs(session.conversationId);
    t.clock.offsetMs += 2 * HOUR + 1000;
    try {
      expect(await wakeSnoozedConversation(t.services, first!)).toBe("nothing");
      expect(await inOpenView(session.conversationId)).toBe(false);
      expect(await wakeSnoozedConversation(t.services, second!)).toBe("woken");
      expect(await inOpenView(session.conversationId)).toBe(true);
    } finally {
      t.clock.offsetMs -= 2 * HOUR + 1000;
    }
  });

  it("error: a time in the past, more than a year ahead, without an offset, or no time at all is 422 naming `until`", async () => {
    const session = await conversation();
    const now = t.services.now().getTime();
    for (const until of [new Date(now - 1000).toISOString(), new Date(now + 400 * 24 * HOUR).toISOString(), "2030-01-01T09:00:00", "2030-02-30T09:00:00Z", "tomorrow", 1700000000, null, undefined]) {
      const refused = await snooze(session.conversationId, until);
      expect(refused.statusCode, `${String(until)}: ${refused.body}`).toBe(422);
      expect(refused.json().error).toMatchObject({ code: "validation_failed", message: expect.any(String), fields: { until: expect.any(Array) } });
    }
    expect(await inOpenView(session.conversationId)).toBe(true);
    expect(await wakeJobs(session.conversationId)).toEqual([]);
  });

  it("error: an unknown conversation is 404, a malformed id 422, a closed conversation 409", async () => {
    const until = new Date(t.services.now().getTime() + HOUR).toISOString();
    const unknown = await snooze("cnv_doesnotexist", until);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe("conversation_not_found");
    expect((await unsnooze("cnv_doesnotexist")).statusCode).toBe(404);
    expect((await snooze("not an id!", until)).statusCode).toBe(422);
    const session = await conversation();
    const closed = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/close`, headers: cast.admin.headers, payload: {} });
    expect(closed.statusCode).toBe(200);
    const refused = await snooze(session.conversationId, until);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("conversation_closed");
  });

  it("security: another workspace's operator gets 404 for snooze and unsnooze, and nothing changes; no session is 401", async () => {
    const session = await conversation();
    const until = new Date(t.services.now().getTime() + HOUR).toISOString();
    const foreign = await snooze(session.conversationId, until, cast.outsider.headers);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("conversation_not_found");
    expect(await inOpenView(session.conversationId)).toBe(true);
    await snooze(session.conversationId, until);
    expect((await unsnooze(session.conversationId, cast.outsider.headers)).statusCode).toBe(404);
    expect(await inSnoozedView(session.conversationId)).toBe(true);
    const anonymous = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/snooze`, headers: { origin: cast.admin.headers.origin }, payload: { until } });
    expect(anonymous.statusCode).toBe(401);
    // The visitor's own view of the conversation says nothing of it.
    const state = await t.app.inject({ method: "GET", url: `${W}/conversation`, headers: bearer(session.jwt) });
    expect(JSON.stringify(state.json())).not.toContain("snooze");
  });

  it("happy: with the workers started, pg-boss runs the wake-up job at the snooze's time and the conversation comes back by itself", async () => {
    await registerSnoozeWorker(t.services, pino({ level: "silent" }));
    const session = await conversation();
    const published = t.published.length;
    const snoozed = await snooze(session.conversationId, new Date(Date.now() + 1500).toISOString());
    expect(snoozed.statusCode).toBe(200);
    // A bound for a stuck queue, not a speed requirement: pg-boss polls for jobs that became due.
    const wokenByTime = () => snoozeEvents(published, session.conversationId).some((event) => event.type === "conversation.snoozed" && event.cause === "time");
    await expect.poll(wokenByTime, { timeout: 60_000, interval: 250 }).toBe(true);
    expect(await inOpenView(session.conversationId)).toBe(true);
  });
});
