import { afterAll, beforeAll, expect, it } from "vitest";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

interface Notification {
  id: string;
  kind: string;
  conversation_id: string | null;
  payload: Record<string, unknown>;
  read_at: string | null;
  created_at: string;
}
interface Page {
  data: Notification[];
  next_cursor: string | null;
  unread_count: number;
}

describeEachStore("the console's notifications on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let ana: ConsoleSession;
  let bob: ConsoleSession;
  let eve: ConsoleSession;
  /** The conversations that asked for a person, oldest first. */
  const asked: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    const other = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Bob" });
    eve = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin", name: "Eve" });
    for (let index = 0; index < 5; index += 1) {
      const session = await startSession(t.app, tenant.agentId);
      const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(session.jwt), payload: { reason: `r${index}` } });
      expect(response.statusCode, response.body).toBe(200);
      asked.push(session.conversationId);
    }
  });
  afterAll(() => t.close());

  const list = async (session: ConsoleSession, query = ""): Promise<Page> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/notifications${query}`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const markRead = (session: ConsoleSession, payload: unknown, headers: Record<string, string> = session.headers) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/notifications/read`, headers, payload: payload as Record<string, unknown> });
  const everything = async (session: ConsoleSession, limit: number): Promise<Notification[]> => {
    const all: Notification[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(session, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return all;
  };

  it("happy: request-human puts one notification in each operator's inbox and announces it once on the workspace channel with every operator's id", async () => {
    const page = await list(ana);
    expect(page.unread_count).toBe(5);
    expect(page.data.map((notification) => notification.conversation_id)).toEqual([...asked].reverse());
    expect(page.data[0]).toMatchObject({ kind: "human_requested", read_at: null, payload: { agent_id: tenant.agentId, reason: "r4" } });
    const bobs = await list(bob);
    expect(bobs.data.map((notification) => notification.conversation_id)).toEqual([...asked].reverse());
    expect(new Set([...page.data, ...bobs.data].map((notification) => notification.id)).size).toBe(10);

    const announced = t.published.filter((event) => event.type === "notification.created" && event.conversationId === asked[4]);
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({
      kind: "human_requested",
      notifications: expect.arrayContaining([
        { id: page.data[0]!.id, operatorId: ana.operator.id },
        { id: bobs.data[0]!.id, operatorId: bob.operator.id },
      ]),
    });
    const [broadcast] = broadcastsOf(announced[0]!);
    expect(broadcast).toEqual({
      channel: `private-workspace.${tenant.workspaceId}`,
      event: "notification.created",
      payload: {
        kind: "human_requested",
        conversation_id: asked[4],
        created_at: expect.any(String),
        notifications: expect.arrayContaining([{ id: page.data[0]!.id, operator_id: ana.operator.id }, { id: bobs.data[0]!.id, operator_id: bob.operator.id }]),
      },
    });
    expect((await list(eve)).data).toEqual([]);
  });

  it("happy: marking ids read counts only the operator's own unread ones; unknown, repeated and other operators' ids are skipped", async () => {
    const anas = (await list(ana)).data;
    const bobs = (await list(bob)).data;
    const response = await markRead(ana, { ids: [anas[1]!.id, anas[1]!.id, bobs[0]!.id, "ntf_unknown"] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ marked: 1, unread_count: 4 });
    expect((await markRead(ana, { ids: [anas[1]!.id] })).json().data).toEqual({ marked: 0, unread_count: 4 });
    expect((await list(bob)).unread_count).toBe(5);
    expect((await markRead(eve, { ids: [anas[0]!.id] })).json().data).toEqual({ marked: 0, unread_count: 0 });
    expect((await list(ana)).unread_count).toBe(4);

    // Unread first (newest first among them), then the read ones.
    const ordered = (await list(ana)).data;
    expect(ordered.map((notification) => notification.id)).toEqual([anas[0]!.id, ...anas.slice(2).map((notification) => notification.id), anas[1]!.id]);
    expect(ordered.at(-1)!.read_at).not.toBeNull();
  });

  it("happy: the cursor pages through the inbox once, across the unread and read ones", async () => {
    const whole = (await list(ana)).data.map((notification) => notification.id);
    for (const limit of [1, 2, 3]) {
      expect((await everything(ana, limit)).map((notification) => notification.id)).toEqual(whole);
    }
  });

  it("happy: all: true marks every unread notification of the operator and no one else's", async () => {
    const response = await markRead(ana, { all: true });
    expect(response.json().data).toEqual({ marked: 4, unread_count: 0 });
    expect((await list(ana)).data.every((notification) => notification.read_at !== null)).toBe(true);
    expect((await list(bob)).unread_count).toBe(5);
    expect((await markRead(ana, { all: true })).json().data).toEqual({ marked: 0, unread_count: 0 });
  });

  it("error: a body with neither or both of ids and all, or bad ids, is 422", async () => {
    for (const payload of [{}, { all: false }, { ids: [] }, { ids: ["bad id"] }, { ids: "ntf_1" }, { ids: ["ntf_1"], all: true }, { ids: Array.from({ length: 101 }, (_, index) => `ntf_${index}`) }]) {
      const response = await markRead(ana, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
    }
  });

  it("error: bad cursor or limit is 422; no session is 401; a POST without Origin is 403", async () => {
    for (const query of ["?limit=0", "?limit=101", "?cursor=abc", `?cursor=${Buffer.from(JSON.stringify([2, "1", "ntf_x"])).toString("base64url")}`]) {
      const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/notifications${query}`, headers: ana.headers });
      expect(response.statusCode, query).toBe(422);
    }
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/notifications` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: `${CONSOLE}/notifications/read`, payload: { all: true } })).statusCode).toBe(401);
    const noOrigin = await markRead(bob, { all: true }, { cookie: bob.headers.cookie });
    expect(noOrigin.statusCode).toBe(403);
    expect((await list(bob)).unread_count).toBe(5);
  });
});
