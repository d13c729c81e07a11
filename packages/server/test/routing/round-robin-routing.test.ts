import type { Channel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { parseAdminArguments } from "../../src/cli/admin-arguments.js";
import { nextInTurn } from "../../src/conversations/route-human-request.js";
import { onlineOperatorIds, operatorsOnline } from "../../src/conversations/operators-online.js";
import { CONSOLE, createSignedInOperator, seedConsoleCast, type ConsoleSession } from "../support/console-session.js";
import type { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, reverbFromInit, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor } from "../support/realtime-clients.js";
import { adminOf, bearer, startSession } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", (error: unknown) => reject(new Error(`subscription refused: ${JSON.stringify(error)}`)));
  });

it("happy: the turn goes to the first candidate after the last one, wrapping round", () => {
  const candidates = [{ id: "op_a" }, { id: "op_b" }, { id: "op_c" }];
  expect(nextInTurn(candidates, null)?.id).toBe("op_a");
  expect(nextInTurn(candidates, "op_a")?.id).toBe("op_b");
  expect(nextInTurn(candidates, "op_c")?.id).toBe("op_a");
  // The last one went offline (or was removed): the next after it by id.
  expect(nextInTurn([{ id: "op_a" }, { id: "op_c" }], "op_b")?.id).toBe("op_c");
  expect(nextInTurn([], "op_a")).toBeNull();
});

it("happy: `agent update --routing round_robin --team A,B` is parsed into the command; --team alone is refused", () => {
  expect(parseAdminArguments(["agent", "update", "agt_1", "--routing", "round_robin", "--team", "op_a, op_b"])).toMatchObject({
    command: "agent.update",
    agentId: "agt_1",
    routing: { mode: "round_robin", team: ["op_a", "op_b"] },
  });
  expect(parseAdminArguments(["agent", "update", "agt_1", "--routing", "manual"])).toMatchObject({ routing: { mode: "manual", team: [] } });
  expect(() => parseAdminArguments(["agent", "update", "agt_1", "--team", "op_a"])).toThrow(/--team goes with --routing/);
});

/**
 * Round-robin routing of human requests (issue 33, part 6) with real presence: each operator
 * "online" is a pusher-js client on the workspace's operators' presence channel, as the console
 * joins it; the visitor asks for a person through the widget API.
 */
describeEachStore("routing an agent's human requests round robin among the operators online (%s)", (kind) => {
  let t: ListeningTestApp;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  let carl: ConsoleSession;
  let reverb: ReverbDescriptor;
  /** The workspace's three operators, in the turn's order (by id). */
  let operators: ConsoleSession[];
  const clients = new Map<string, Pusher>();

  beforeAll(async () => {
    t = await createListeningTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "1000" });
    cast = await seedConsoleCast(t, { admin: "Ana", agentOperator: "Bo" });
    carl = await createSignedInOperator(t, { workspaceId: cast.tenant.workspaceId, role: "agent", name: "Carl" });
    operators = [cast.admin, cast.agentOperator, carl].sort((a, b) => (a.operator.id < b.operator.id ? -1 : 1));
    reverb = await reverbFromInit(t);
  }, 60_000);
  afterEach(async () => {
    for (const id of [...clients.keys()]) await goOffline(id);
    for (const session of operators) await setAway(session, false);
  });
  afterAll(async () => {
    for (const client of clients.values()) client.disconnect();
    await t?.close();
  });

  const workspaceOnline = () => onlineOperatorIds(t.services, cast.tenant.workspaceId);
  /** The operator says they are away (or back) from their console. */
  const setAway = (session: ConsoleSession, away: boolean) =>
    t.app.inject({ method: "PUT", url: `${CONSOLE}/me/availability`, headers: session.headers, payload: { away } });

  /** The operator's console joins the operators' presence channel. */
  async function goOnline(...sessions: ConsoleSession[]): Promise<void> {
    for (const session of sessions) {
      const client = signedPusherClient(reverb, t.pusherServer, { user_id: session.operator.id, user_info: { name: session.operator.name } });
      clients.set(session.operator.id, client);
      await subscribed(client.subscribe(`presence-operators.${cast.tenant.workspaceId}`));
    }
    await until(async () => {
      const online = await workspaceOnline();
      return sessions.every((session) => online.includes(session.operator.id));
    });
  }

  async function goOffline(operatorId: string): Promise<void> {
    clients.get(operatorId)?.disconnect();
    clients.delete(operatorId);
    await until(async () => !(await workspaceOnline()).includes(operatorId));
  }

  async function setRouting(routing: { mode: "manual" | "round_robin"; team: string[] }) {
    const response = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${cast.tenant.agentId}`, headers: cast.admin.headers, payload: { routing } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.routing).toEqual(routing);
  }

  /** A new visitor asks for a person; the answer, and who the conversation went to. */
  async function handOff(): Promise<{ conversationId: string; status: string; assignee: { id: string; name: string } | null }> {
    const session = await startSession(t.app, cast.tenant.agentId);
    const requested = await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: { reason: "a person please" } });
    expect(requested.statusCode, requested.body).toBe(200);
    const detail = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}`, headers: cast.admin.headers });
    return { conversationId: session.conversationId, status: requested.json().data.status, assignee: detail.json().data.assignee };
  }

  const notifiedOperators = async (conversationId: string) =>
    (await t.services.db.query<{ operator_id: string }>(`SELECT operator_id FROM inbox_notifications WHERE conversation_id = $1 ORDER BY operator_id`, [conversationId])).rows.map(
      (row) => row.operator_id,
    );

  it("happy: the console reads and the admin CLI sets an agent's routing; manual is every agent's default", async () => {
    const read = await t.app.inject({ method: "GET", url: `${CONSOLE}/agents/${cast.tenant.agentId}`, headers: cast.admin.headers });
    expect(read.json().data.routing).toEqual({ mode: "manual", team: [] });
    const updated = (await runAdminCommand(adminOf(t.services), {
      command: "agent.update",
      agentId: cast.tenant.agentId,
      routing: { mode: "round_robin", team: [carl.operator.id] },
    })) as { routing: unknown };
    expect(updated.routing).toEqual({ mode: "round_robin", team: [carl.operator.id] });
    await setRouting({ mode: "manual", team: [] });
  });

  it("happy: manual routing leaves the request to anyone and alerts every operator, online or not (today's behaviour)", async () => {
    await setRouting({ mode: "manual", team: [] });
    await goOnline(...operators);
    const handed = await handOff();
    expect(handed).toMatchObject({ status: "awaiting_human", assignee: null });
    expect(await notifiedOperators(handed.conversationId)).toEqual(operators.map((session) => session.operator.id).sort());
  });

  it("happy: round robin gives each request to the next operator online in turn, notifies only them, and they join", async () => {
    await setRouting({ mode: "round_robin", team: [] });
    await goOnline(...operators);
    const published = t.published.length;
    const assignees: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const handed = await handOff();
      expect(handed.status).toBe("human");
      expect(handed.assignee).not.toBeNull();
      assignees.push(handed.assignee!.id);
      expect(await notifiedOperators(handed.conversationId)).toEqual([handed.assignee!.id]);
    }
    // Three in a row are three different operators, and the cycle repeats in the same order.
    expect(new Set(assignees.slice(0, 3)).size).toBe(3);
    expect(assignees.slice(3)).toEqual(assignees.slice(0, 3));

    // Consoles hear the request (naming its assignee, so only theirs alerts), then the transition to `human`.
    const events = t.published.slice(published);
    const requests = events.filter((event) => event.type === "human.requested");
    expect(requests).toHaveLength(6);
    expect(requests.map((event) => (event.type === "human.requested" ? event.assignedTo : null))).toEqual(assignees);
    const joined = events.filter((event) => event.type === "conversation.updated" && event.status === "human");
    expect(joined).toHaveLength(6);

    // The transcript says who joined, after the request.
    const last = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${(await handOff()).conversationId}`, headers: cast.admin.headers });
    const codes = (last.json().data.messages as { code?: string }[]).map((message) => message.code).filter(Boolean);
    expect(codes).toEqual(["human_requested", "operator_joined"]);
  });

  it("happy: an operator who went offline is skipped, and has their turn again once back", async () => {
    await setRouting({ mode: "round_robin", team: [] });
    await goOnline(...operators);
    const [first, second, third] = operators as [ConsoleSession, ConsoleSession, ConsoleSession];
    await goOffline(second.operator.id);
    const assignees: string[] = [];
    for (let index = 0; index < 4; index += 1) assignees.push((await handOff()).assignee!.id);
    expect(assignees).not.toContain(second.operator.id);
    expect(new Set(assignees)).toEqual(new Set([first.operator.id, third.operator.id]));
    expect(assignees[0]).not.toBe(assignees[1]);
    await goOnline(second);
    const next: string[] = [];
    for (let index = 0; index < 3; index += 1) next.push((await handOff()).assignee!.id);
    expect(new Set(next)).toEqual(new Set(operators.map((session) => session.operator.id)));
  });

  it("happy: an away operator stays connected but is passed by and counts as offline; back, they take turns again", async () => {
    await setRouting({ mode: "round_robin", team: [] });
    await goOnline(...operators);
    const [first, second, third] = operators as [ConsoleSession, ConsoleSession, ConsoleSession];
    const went = await setAway(second, true);
    expect(went.statusCode, went.body).toBe(200);
    expect(went.json()).toEqual({ data: { away: true } });
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me/availability`, headers: second.headers })).json()).toEqual({ data: { away: true } });
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me/availability`, headers: first.headers })).json()).toEqual({ data: { away: false } });
    const listed = (await t.app.inject({ method: "GET", url: `${CONSOLE}/operators`, headers: cast.admin.headers })).json().data as { id: string; away: boolean }[];
    expect(Object.fromEntries(listed.map((operator) => [operator.id, operator.away]))).toEqual({ [first.operator.id]: false, [second.operator.id]: true, [third.operator.id]: false });
    expect(await workspaceOnline()).toEqual([first.operator.id, third.operator.id]);
    const assignees: string[] = [];
    for (let index = 0; index < 4; index += 1) assignees.push((await handOff()).assignee!.id);
    expect(new Set(assignees)).toEqual(new Set([first.operator.id, third.operator.id]));

    // Everyone connected is away: nobody is online, the request waits and every operator is alerted.
    await setAway(first, true);
    await setAway(third, true);
    expect(await operatorsOnline(t.services, cast.tenant.workspaceId)).toBe(false);
    const waiting = await handOff();
    expect(waiting).toMatchObject({ status: "awaiting_human", assignee: null });
    expect(await notifiedOperators(waiting.conversationId)).toHaveLength(3);

    // Twice away is still away; back, each takes turns again.
    expect((await setAway(second, true)).json()).toEqual({ data: { away: true } });
    for (const session of operators) expect((await setAway(session, false)).json()).toEqual({ data: { away: false } });
    expect(await operatorsOnline(t.services, cast.tenant.workspaceId)).toBe(true);
    const next: string[] = [];
    for (let index = 0; index < 3; index += 1) next.push((await handOff()).assignee!.id);
    expect(new Set(next)).toEqual(new Set(operators.map((session) => session.operator.id)));
  });

  it("error: a bad availability is 422 naming `away`; without a session 401, and nothing changes", async () => {
    for (const payload of [{}, { away: "yes" }, { away: null }]) {
      const refused = await t.app.inject({ method: "PUT", url: `${CONSOLE}/me/availability`, headers: cast.admin.headers, payload });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(refused.json().error).toMatchObject({ code: "validation_failed", fields: { away: expect.any(Array) } });
    }
    const anonymous = await t.app.inject({ method: "PUT", url: `${CONSOLE}/me/availability`, payload: { away: true } });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me/availability` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me/availability`, headers: cast.admin.headers })).json()).toEqual({ data: { away: false } });
  });

  it("happy: the bot's handoff (a visitor asking for a person in a message) is routed the same way", async () => {
    await setRouting({ mode: "round_robin", team: [] });
    const [first] = operators as [ConsoleSession];
    await goOnline(first);
    const session = await startSession(t.app, cast.tenant.agentId);
    const asked = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "Can I talk to a human?" } });
    expect(asked.statusCode, asked.body).toBe(200);
    const detail = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}`, headers: cast.admin.headers });
    expect(detail.json().data).toMatchObject({ status: "human", assignee: { id: first.operator.id }, human_request_reason: "Can I talk to a human?" });
    expect(await notifiedOperators(session.conversationId)).toEqual([first.operator.id]);
  });

  it("happy: with a team, only its operators take turns; the others online are never given one", async () => {
    const [first, second, third] = operators as [ConsoleSession, ConsoleSession, ConsoleSession];
    await setRouting({ mode: "round_robin", team: [first.operator.id, third.operator.id] });
    await goOnline(...operators);
    const assignees: string[] = [];
    for (let index = 0; index < 4; index += 1) assignees.push((await handOff()).assignee!.id);
    expect(assignees).not.toContain(second.operator.id);
    expect(new Set(assignees)).toEqual(new Set([first.operator.id, third.operator.id]));
    // No member of the team online: the request waits for anyone, and everyone is alerted.
    await goOffline(first.operator.id);
    await goOffline(third.operator.id);
    const waiting = await handOff();
    expect(waiting).toMatchObject({ status: "awaiting_human", assignee: null });
    expect(await notifiedOperators(waiting.conversationId)).toHaveLength(3);
  });

  it("happy: nobody online — the request stays unassigned and every operator is alerted, as with manual", async () => {
    await setRouting({ mode: "round_robin", team: [] });
    expect(await workspaceOnline()).toEqual([]);
    const published = t.published.length;
    const handed = await handOff();
    expect(handed).toMatchObject({ status: "awaiting_human", assignee: null });
    expect(await notifiedOperators(handed.conversationId)).toEqual(operators.map((session) => session.operator.id).sort());
    const request = t.published.slice(published).find((event) => event.type === "human.requested");
    expect(request).toMatchObject({ assignedTo: null });
    // The mail check for away operators is queued as before.
    const checks = await t.services.db.query(`SELECT 1 FROM mail_checks WHERE conversation_id = $1 AND kind = 'away_operators'`, [handed.conversationId]);
    expect(checks.rows).toHaveLength(1);
  });

  it("happy: 20 simultaneous requests with 3 operators online are spread evenly (7, 7, 6), each assigned exactly once", async () => {
    await setRouting({ mode: "round_robin", team: [] });
    await goOnline(...operators);
    const sessions = await Promise.all(Array.from({ length: 20 }, () => startSession(t.app, cast.tenant.agentId)));
    const answers = await Promise.all(
      sessions.map((session) => t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: {} })),
    );
    for (const answer of answers) expect(answer.json().data.status).toBe("human");
    const { rows } = await t.services.db.query<{ assignee_operator_id: string; joined: number }>(
      `SELECT c.assignee_operator_id,
         (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id AND m.system_code = 'operator_joined') AS joined
       FROM conversations c WHERE c.id = ANY($1::text[])`,
      [`{${sessions.map((session) => session.conversationId).join(",")}}`],
    );
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row.joined).toBe(1);
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.assignee_operator_id, (counts.get(row.assignee_operator_id) ?? 0) + 1);
    expect([...counts.values()].sort()).toEqual([6, 7, 7]);
  });

  it("error: a team naming an unknown operator or another workspace's is refused with 422 naming routing.team; a bad mode too", async () => {
    for (const team of [["op_unknown"], [cast.outsider.operator.id]]) {
      const refused = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${cast.tenant.agentId}`, headers: cast.admin.headers, payload: { routing: { mode: "round_robin", team } } });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error).toMatchObject({ code: "validation_failed", fields: { "routing.team": [expect.stringContaining(team[0]!)] } });
    }
    for (const routing of [{ mode: "random", team: [] }, { mode: "round_robin" }, { mode: "round_robin", team: ["a", "a"] }, { mode: "round_robin", team: ["bad id!"] }]) {
      const refused = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${cast.tenant.agentId}`, headers: cast.admin.headers, payload: { routing } });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error.code).toBe("validation_failed");
      expect(Object.keys(refused.json().error.fields).some((field) => field.startsWith("routing"))).toBe(true);
    }
    await expect(
      runAdminCommand(adminOf(t.services), { command: "agent.update", agentId: cast.tenant.agentId, routing: { mode: "round_robin", team: ["op_nobody"] } }),
    ).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("happy: an operator removed from the workspace leaves the team; the team sent back as it was read still saves, without them", async () => {
    const dee = await createSignedInOperator(t, { workspaceId: cast.tenant.workspaceId, role: "agent", name: "Dee" });
    const [first] = operators as [ConsoleSession];
    await setRouting({ mode: "round_robin", team: [first.operator.id, dee.operator.id] });
    await runAdminCommand(adminOf(t.services), { command: "operator.remove", operatorId: dee.operator.id });
    const saved = await t.app.inject({
      method: "PATCH",
      url: `${CONSOLE}/agents/${cast.tenant.agentId}`,
      headers: cast.admin.headers,
      payload: { routing: { mode: "round_robin", team: [first.operator.id, dee.operator.id] } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.routing).toEqual({ mode: "round_robin", team: [first.operator.id] });
    await setRouting({ mode: "manual", team: [] });
  });

  it("security: only the agent's own workspace may change its routing (another workspace's admin gets 404)", async () => {
    const refused = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${cast.tenant.agentId}`, headers: cast.outsider.headers, payload: { routing: { mode: "round_robin", team: [] } } });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe("agent_not_found");
    // An operator of another workspace online is never given this workspace's requests.
    await setRouting({ mode: "round_robin", team: [] });
    const outsider = signedPusherClient(reverb, t.pusherServer, { user_id: cast.outsider.operator.id, user_info: { name: "Out" } });
    clients.set(cast.outsider.operator.id, outsider);
    await subscribed(outsider.subscribe(`presence-operators.${cast.other.workspaceId}`));
    const handed = await handOff();
    expect(handed).toMatchObject({ status: "awaiting_human", assignee: null });
    outsider.disconnect();
    clients.delete(cast.outsider.operator.id);
  });
});
