import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { FrontdeskEvent } from "../../src/events/frontdesk-events.js";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { adminOf, bearer, SITE_ORIGIN, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const PARIS_WEEK = {
  time_zone: "europe/paris",
  days: {
    mon: [{ open: "09:00", close: "17:30" }],
    tue: [{ open: "09:00", close: "17:30" }],
    wed: [{ open: "09:00", close: "17:30" }],
    thu: [{ open: "09:00", close: "17:30" }],
    fri: [{ open: "09:00", close: "12:00" }, { open: "13:00", close: "17:30" }],
  },
};
/** Friday 27 March 2026, 11:00 in Paris (UTC+1): open. */
const FRIDAY_OPEN = "2026-03-27T10:00:00Z";
/** Friday 27 March 2026, 21:00 in Paris: closed until Monday 09:00, summer time by then (clocks go forward on Sunday 29). */
const FRIDAY_EVENING = "2026-03-27T20:00:00Z";
const MONDAY_OPENING = "2026-03-30T07:00:00.000Z";

describeEachStore("an agent's office hours, away message and reply time on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  const raised: FrontdeskEvent[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: "http://console.frontdesk.test" });
    tenant = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
    const events = t.services.events;
    t.services.events = {
      raise: async (tx, event) => {
        raised.push(event);
        await events.raise(tx, event);
      },
    };
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.offsetMs = 0;
  });

  const patch = (payload: Record<string, unknown>, session: ConsoleSession = admin) =>
    t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${tenant.agentId}`, headers: session.headers, payload });
  const setClock = (iso: string) => {
    t.clock.offsetMs = Date.parse(iso) - Date.now();
  };
  const initAvailability = async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/init", headers: { origin: SITE_ORIGIN }, payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, new_conversation: true } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.availability;
  };

  it("happy: without office hours an agent is always open, and init says so with no away message and no reply time", async () => {
    expect(await initAvailability()).toEqual({ open_now: true, next_open_at: null, away_message: null, reply_time: null });
  });

  it("happy: an admin sets them in one PATCH; the zone is stored as Intl spells it, GET and the admin CLI's list read them back", async () => {
    const saved = await patch({ office_hours: PARIS_WEEK, away_message: "  We answer on weekdays.  ", reply_time: "hours" });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = { office_hours: { ...PARIS_WEEK, time_zone: "Europe/Paris" }, away_message: "We answer on weekdays.", reply_time: "hours" };
    expect(saved.json().data).toMatchObject(expected);
    const read = await t.app.inject({ method: "GET", url: `${CONSOLE}/agents/${tenant.agentId}`, headers: admin.headers });
    expect(read.json().data).toMatchObject(expected);
    const listed = (await runAdminCommand(adminOf(t.services), { command: "agent.list", workspaceId: tenant.workspaceId })) as Record<string, unknown>[];
    expect(listed[0]).toMatchObject(expected);
    // Another setting's change leaves them as they are.
    expect((await patch({ tone: "brisk" })).json().data).toMatchObject(expected);
  });

  it("happy: init gives the reply time inside hours, and outside them the away message and Monday's 09:00 in summer time", async () => {
    setClock(FRIDAY_OPEN);
    expect(await initAvailability()).toEqual({ open_now: true, next_open_at: null, away_message: "We answer on weekdays.", reply_time: "hours" });
    setClock(FRIDAY_EVENING);
    expect(await initAvailability()).toEqual({ open_now: false, next_open_at: MONDAY_OPENING, away_message: "We answer on weekdays.", reply_time: "hours" });
  });

  it("happy: asking for a person outside hours still raises human.requested (with outsideHours) and alerts operators; the answer says to offer the e-mail", async () => {
    setClock(FRIDAY_EVENING);
    const session = await startSession(t.app, tenant.agentId, { new_conversation: true });
    raised.length = 0;
    const asked = await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(session.jwt), payload: { reason: "refund" } });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().data).toMatchObject({ status: "awaiting_human", outside_hours: true, reason: "refund" });
    expect(raised).toEqual([expect.objectContaining({ type: "human.requested", outsideHours: true, reason: "refund", conversation: expect.objectContaining({ conversationId: session.conversationId }) })]);
    const inbox = (await runAdminCommand(adminOf(t.services), { command: "inbox.list", operatorId: admin.operator.id })) as { conversation_id: string; payload: Record<string, unknown> }[];
    expect(inbox.find((notification) => notification.conversation_id === session.conversationId)?.payload).toMatchObject({ outside_hours: true, reason: "refund" });
  });

  it("happy: inside hours the request is as before (outside_hours false), asked in words too", async () => {
    setClock(FRIDAY_OPEN);
    const session = await startSession(t.app, tenant.agentId, { new_conversation: true });
    raised.length = 0;
    const asked = await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(session.jwt), payload: {} });
    expect(asked.json().data).toMatchObject({ status: "awaiting_human", outside_hours: false });
    expect(raised).toEqual([expect.objectContaining({ type: "human.requested", outsideHours: false })]);
    const inbox = (await runAdminCommand(adminOf(t.services), { command: "inbox.list", operatorId: admin.operator.id })) as { conversation_id: string; payload: Record<string, unknown> }[];
    expect(inbox.find((notification) => notification.conversation_id === session.conversationId)?.payload).not.toHaveProperty("outside_hours");
  });

  it("error: a bad zone, a bad time, a close before its open, overlapping intervals, a bad reply time: 422 naming each field, nothing changed", async () => {
    const refused = await patch({
      office_hours: {
        time_zone: "Europe/Atlantis",
        days: { mon: [{ open: "9am", close: "17:00" }], tue: [{ open: "18:00", close: "08:00" }], wed: [{ open: "09:00", close: "13:00" }, { open: "12:30", close: "17:00" }] },
      },
      reply_time: "weeks",
      away_message: "x".repeat(501),
    });
    expect(refused.statusCode, refused.body).toBe(422);
    const { error } = refused.json();
    expect(error).toMatchObject({ code: "validation_failed", message: expect.any(String) });
    expect(Object.keys(error.fields).sort()).toEqual([
      "away_message",
      "office_hours.days.mon.0.open",
      "office_hours.days.tue.0.close",
      "office_hours.days.wed.1.open",
      "office_hours.time_zone",
      "reply_time",
    ]);
    expect(error.fields["office_hours.days.wed.1.open"]).toEqual(["overlaps the interval 09:00–13:00"]);
    const tooMany = await patch({ office_hours: { time_zone: "UTC", days: { sat: ["00", "02", "04", "06", "08"].map((hour) => ({ open: `${hour}:00`, close: `${hour}:30` })) }, sunday: [] } });
    expect(tooMany.statusCode).toBe(422);
    expect(Object.keys(tooMany.json().error.fields).sort()).toEqual(["office_hours", "office_hours.days.sat"]);
    const read = await t.app.inject({ method: "GET", url: `${CONSOLE}/agents/${tenant.agentId}`, headers: admin.headers });
    expect(read.json().data.office_hours.time_zone).toBe("Europe/Paris");
  });

  it("security: an agent-role operator cannot change office hours (403 before validation)", async () => {
    const operator = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    const refused = await patch({ office_hours: null }, operator);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("forbidden");
  });

  it("happy: null clears each (always open, no away message, no reply time)", async () => {
    const cleared = await patch({ office_hours: null, away_message: null, reply_time: null });
    expect(cleared.json().data).toMatchObject({ office_hours: null, away_message: null, reply_time: null });
    setClock(FRIDAY_EVENING);
    expect(await initAvailability()).toEqual({ open_now: true, next_open_at: null, away_message: null, reply_time: null });
  });
});
