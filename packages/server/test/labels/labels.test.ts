import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import type { ApiTokenAbility } from "../../src/tenants/authenticate-api-token.js";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { adminOf, bearer, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
const API = "/api/v1/workspace";

describeEachStore("labels on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;

  beforeAll(async () => {
    // A webhook endpoint on loopback: no worker delivers here, so queued events stay readable.
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1" });
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t, { agentOperator: "Sam" }));
    const endpoint = await t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks`, headers: admin.headers, payload: { url: "http://127.0.0.1:9/hooks", events: ["conversation.labelled"] } });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
  }, 120_000);
  afterAll(() => t.close());

  const call = (session: ConsoleSession, method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", path: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `${CONSOLE}${path}`, headers: session.headers, ...(payload ? { payload } : {}) });
  const createLabel = async (session: ConsoleSession, name: string, colour = "#1F6FEB") => {
    const response = await call(session, "POST", "/labels", { name, colour });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; name: string; colour: string };
  };
  /** A visitor's conversation with a message in it (the inbox lists only conversations with words in them). */
  const conversationOf = async (agentId: string, text = "Where is my parcel?"): Promise<StartedSession> => {
    const session = await startSession(t.app, agentId);
    const sent = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: text } });
    expect(sent.statusCode, sent.body).toBe(200);
    return session;
  };
  const list = async (session: ConsoleSession, query: string) => {
    const response = await call(session, "GET", `/conversations${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; labels: { id: string; name: string; colour: string }[] }[];
  };
  const labelledEvents = async () =>
    (await t.services.db.query<{ body: string }>(`SELECT body FROM webhook_events WHERE workspace_id = $1 AND type = 'conversation.labelled' ORDER BY created_at`, [tenant.workspaceId])).rows.map(
      (row) => JSON.parse(row.body) as { data: Record<string, unknown> },
    );

  it("happy: an admin creates, renames and recolours labels; any operator lists them by name with their counts", async () => {
    const refund = await createLabel(admin, "Refund", "#D73A49");
    expect(refund).toMatchObject({ name: "Refund", colour: "#d73a49", conversations: 0 });
    await createLabel(admin, "billing");
    const renamed = await call(admin, "PATCH", `/labels/${refund.id}`, { name: "Refunds", colour: "#0a7c2f" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ id: refund.id, name: "Refunds", colour: "#0a7c2f" });
    const listed = await call(agentOperator, "GET", "/labels");
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((label: { name: string }) => label.name)).toEqual(["billing", "Refunds"]);
  });

  it("error: a bad colour, an empty or long name, a name taken in any case and an empty change are refused; nothing is stored", async () => {
    await createLabel(admin, "Urgent");
    for (const [payload, field] of [
      [{ name: "Red", colour: "red" }, "colour"],
      [{ name: "Red", colour: "#ff00" }, "colour"],
      [{ name: "Red", colour: "#gg0000" }, "colour"],
      [{ name: "  ", colour: "#ff0000" }, "name"],
      [{ name: "x".repeat(41), colour: "#ff0000" }, "name"],
      [{ name: "Tab\there", colour: "#ff0000" }, "name"],
      [{ colour: "#ff0000" }, "name"],
    ] as const) {
      const response = await call(admin, "POST", "/labels", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields)).toContain(field);
    }
    const taken = await call(admin, "POST", "/labels", { name: "URGENT", colour: "#ff0000" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe("label_name_taken");
    const other = await createLabel(admin, "Later");
    const renamedOnto = await call(admin, "PATCH", `/labels/${other.id}`, { name: "urgent" });
    expect(renamedOnto.statusCode).toBe(409);
    expect((await call(admin, "PATCH", `/labels/${other.id}`, {})).statusCode).toBe(422);
    const names = (await call(admin, "GET", "/labels")).json().data.map((label: { name: string }) => label.name);
    expect(names.filter((name: string) => name.toLowerCase() === "urgent")).toEqual(["Urgent"]);
    expect(names).not.toContain("Red");
  });

  it("happy: operators put labels on and off a conversation; the inbox shows and filters by them, the detail shows them, the webhook says who", async () => {
    const vip = await createLabel(admin, "VIP", "#6f42c1");
    const shipping = await createLabel(admin, "Shipping", "#0969da");
    const first = await conversationOf(tenant.agentId, "My parcel is late");
    const second = await conversationOf(tenant.agentId, "Do you ship abroad?");
    const published = t.published.length;

    const put = await call(agentOperator, "PUT", `/conversations/${first.conversationId}/labels/${vip.id}`);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ conversation_id: first.conversationId, labels: [{ id: vip.id, name: "VIP", colour: "#6f42c1" }] });
    // Again: nothing changes, and no second event.
    expect((await call(agentOperator, "PUT", `/conversations/${first.conversationId}/labels/${vip.id}`)).json().data.labels).toHaveLength(1);
    await call(agentOperator, "PUT", `/conversations/${first.conversationId}/labels/${shipping.id}`);
    await call(agentOperator, "PUT", `/conversations/${second.conversationId}/labels/${shipping.id}`);

    const all = await list(agentOperator, "");
    expect(all.find((row) => row.id === first.conversationId)?.labels.map((label) => label.name)).toEqual(["VIP", "Shipping"]);
    expect(all.find((row) => row.id === second.conversationId)?.labels.map((label) => label.name)).toEqual(["Shipping"]);
    expect((await list(agentOperator, `?label_id=${vip.id}`)).map((row) => row.id)).toEqual([first.conversationId]);
    expect((await list(agentOperator, `?label_id=${shipping.id}&limit=1`)).map((row) => row.id)).toEqual([second.conversationId]);
    const detail = await call(agentOperator, "GET", `/conversations/${first.conversationId}`);
    expect(detail.json().data.labels).toEqual([
      { id: vip.id, name: "VIP", colour: "#6f42c1" },
      { id: shipping.id, name: "Shipping", colour: "#0969da" },
    ]);
    const counts = Object.fromEntries((await call(admin, "GET", "/labels")).json().data.map((label: { name: string; conversations: number }) => [label.name, label.conversations]));
    expect(counts).toMatchObject({ VIP: 1, Shipping: 2 });

    const events = (await labelledEvents()).filter((event) => event.data["conversation_id"] === first.conversationId);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ agent_id: tenant.agentId, label: { id: vip.id, name: "VIP", colour: "#6f42c1" }, by: { kind: "operator", id: agentOperator.operator.id, name: "Sam" } }),
      expect.objectContaining({ label: expect.objectContaining({ name: "Shipping" }) }),
    ]);

    const off = await call(agentOperator, "DELETE", `/conversations/${first.conversationId}/labels/${vip.id}`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.labels.map((label: { name: string }) => label.name)).toEqual(["Shipping"]);
    expect((await call(agentOperator, "DELETE", `/conversations/${first.conversationId}/labels/${vip.id}`)).statusCode).toBe(200);
    // The consoles hear of each change on the workspace's channel (three put on, one taken off; repeats say nothing).
    const changes = t.published.slice(published).filter((event) => event.type === "conversation.labels.changed");
    expect(changes.map((event) => event.type === "conversation.labels.changed" && event.conversationId)).toEqual([
      first.conversationId,
      first.conversationId,
      second.conversationId,
      first.conversationId,
    ]);
    expect(broadcastsOf(changes[0]!)).toEqual([
      { channel: `private-workspace.${tenant.workspaceId}`, event: "conversation.labels.changed", payload: { conversation_id: first.conversationId, agent_id: tenant.agentId, changed_at: expect.any(String) } },
    ]);
    expect(await list(agentOperator, `?label_id=${vip.id}`)).toEqual([]);
  });

  it("happy: deleting a label takes it off every conversation; analytics counts conversations per label", async () => {
    const doomed = await createLabel(admin, "Doomed", "#999999");
    const kept = await createLabel(admin, "Kept", "#000000");
    const one = await conversationOf(tenant.agentId);
    const two = await conversationOf(tenant.agentId);
    for (const session of [one, two]) {
      await call(agentOperator, "PUT", `/conversations/${session.conversationId}/labels/${doomed.id}`);
    }
    await call(agentOperator, "PUT", `/conversations/${one.conversationId}/labels/${kept.id}`);
    const analytics = await call(agentOperator, "GET", `/analytics?agent_id=${tenant.agentId}`);
    expect(analytics.statusCode, analytics.body).toBe(200);
    const perLabel = Object.fromEntries(analytics.json().data.labels.map((label: { name: string; conversations: number }) => [label.name, label.conversations]));
    expect(perLabel).toMatchObject({ Doomed: 2, Kept: 1, Urgent: 0 });
    expect(analytics.json().data.labels[0]).toMatchObject({ name: expect.any(String), colour: expect.stringMatching(/^#[0-9a-f]{6}$/) });

    expect((await call(agentOperator, "DELETE", `/labels/${doomed.id}`)).statusCode).toBe(403);
    expect((await call(admin, "DELETE", `/labels/${doomed.id}`)).statusCode).toBe(204);
    expect((await call(admin, "DELETE", `/labels/${doomed.id}`)).statusCode).toBe(404);
    const detail = (await call(agentOperator, "GET", `/conversations/${one.conversationId}`)).json().data;
    expect(detail.labels.map((label: { name: string }) => label.name)).toEqual(["Kept"]);
    const { rows } = await t.services.db.query(`SELECT 1 FROM conversation_labels WHERE label_id = $1`, [doomed.id]);
    expect(rows).toEqual([]);
    expect((await call(agentOperator, "GET", `/conversations?label_id=${doomed.id}`)).statusCode).toBe(404);
  });

  it("error: an unknown label or conversation is 404 with its code; a bad id 422", async () => {
    const label = await createLabel(admin, "Known");
    const session = await conversationOf(tenant.agentId);
    const unknownLabel = await call(agentOperator, "PUT", `/conversations/${session.conversationId}/labels/lbl_nope`);
    expect(unknownLabel.statusCode).toBe(404);
    expect(unknownLabel.json().error.code).toBe("label_not_found");
    const unknownConversation = await call(agentOperator, "PUT", `/conversations/cnv_nope/labels/${label.id}`);
    expect(unknownConversation.statusCode).toBe(404);
    expect(unknownConversation.json().error.code).toBe("conversation_not_found");
    expect((await call(agentOperator, "DELETE", `/conversations/cnv_nope/labels/${label.id}`)).json().error.code).toBe("conversation_not_found");
    expect((await call(admin, "PATCH", `/labels/lbl_nope`, { name: "x" })).json().error.code).toBe("label_not_found");
    const badId = await call(agentOperator, "PUT", `/conversations/${session.conversationId}/labels/${encodeURIComponent("bad id!")}`);
    expect(badId.statusCode).toBe(422);
    expect((await call(agentOperator, "GET", `/conversations?label_id=lbl_nope`)).json().error.code).toBe("label_not_found");
  });

  it("security: another workspace's label and conversation are 404 both ways, an agent cannot manage labels, and nothing is written", async () => {
    const mine = await createLabel(admin, "Mine");
    const theirs = await createLabel(outsider, "Theirs");
    const myConversation = await conversationOf(tenant.agentId);
    const theirConversation = await conversationOf(other.agentId);
    for (const [path, code] of [
      [`/conversations/${myConversation.conversationId}/labels/${theirs.id}`, "label_not_found"],
      [`/conversations/${theirConversation.conversationId}/labels/${mine.id}`, "conversation_not_found"],
    ] as const) {
      for (const method of ["PUT", "DELETE"] as const) {
        const response = await call(agentOperator, method, path);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
        expect(response.json().error.code).toBe(code);
      }
    }
    expect((await call(admin, "PATCH", `/labels/${theirs.id}`, { name: "Stolen" })).statusCode).toBe(404);
    expect((await call(admin, "DELETE", `/labels/${theirs.id}`)).statusCode).toBe(404);
    expect((await call(agentOperator, "GET", `/conversations?label_id=${theirs.id}`)).statusCode).toBe(404);
    expect((await call(agentOperator, "GET", "/labels")).json().data.map((label: { id: string }) => label.id)).not.toContain(theirs.id);
    for (const [method, path, payload] of [
      ["POST", "/labels", { name: "Agent's", colour: "#ff0000" }],
      ["PATCH", `/labels/${mine.id}`, { name: "Agent's" }],
      ["DELETE", `/labels/${mine.id}`, undefined],
    ] as const) {
      const response = await call(agentOperator, method, path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json().error.code).toBe("forbidden");
    }
    // Without Origin (another site's form): refused before anything is written.
    const forged = await t.app.inject({ method: "PUT", url: `${CONSOLE}/conversations/${myConversation.conversationId}/labels/${mine.id}`, headers: { cookie: agentOperator.headers.cookie } });
    expect(forged.statusCode).toBe(403);
    const { rows } = await t.services.db.query(`SELECT 1 FROM conversation_labels WHERE conversation_id = ANY($1::text[])`, [
      `{${myConversation.conversationId},${theirConversation.conversationId}}`,
    ]);
    expect(rows).toEqual([]);
    expect((await call(outsider, "GET", "/labels")).json().data.map((label: { name: string }) => label.name)).toEqual(["Theirs"]);
  });

  it("happy: an automation labels a conversation with an API token holding conversations:label; security: other tokens and workspaces are refused", async () => {
    const label = await createLabel(admin, "Automated", "#bf8700");
    const session = await conversationOf(tenant.agentId);
    const issue = async (workspaceId: string, abilities: ApiTokenAbility[]) =>
      ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId, name: "Automation", abilities })) as { token: string }).token;
    const token = await issue(tenant.workspaceId, ["conversations:label"]);
    const auth = { authorization: `Bearer ${token}` };

    const labels = await t.app.inject({ method: "GET", url: `${API}/labels`, headers: auth });
    expect(labels.statusCode, labels.body).toBe(200);
    expect(labels.json().data.map((row: { id: string }) => row.id)).toContain(label.id);
    const put = await t.app.inject({ method: "PUT", url: `${API}/conversations/${session.conversationId}/labels/${label.id}`, headers: auth });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.labels).toEqual([{ id: label.id, name: "Automated", colour: "#bf8700" }]);
    expect(put.headers["x-ratelimit-limit"]).toBeDefined();
    const event = (await labelledEvents()).find((row) => row.data["conversation_id"] === session.conversationId);
    expect(event?.data["by"]).toMatchObject({ kind: "api_token", name: "Automation" });
    const off = await t.app.inject({ method: "DELETE", url: `${API}/conversations/${session.conversationId}/labels/${label.id}`, headers: auth });
    expect(off.json().data.labels).toEqual([]);

    const sourcesOnly = await issue(tenant.workspaceId, ["sources:write"]);
    const refused = await t.app.inject({ method: "PUT", url: `${API}/conversations/${session.conversationId}/labels/${label.id}`, headers: { authorization: `Bearer ${sourcesOnly}` } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("missing_ability");
    expect((await t.app.inject({ method: "PUT", url: `${API}/conversations/${session.conversationId}/labels/${label.id}` })).json().error.code).toBe("missing_token");
    expect((await t.app.inject({ method: "GET", url: `${API}/labels`, headers: { authorization: "Bearer fdk_nope" } })).statusCode).toBe(401);
    const outsiderToken = await issue(other.workspaceId, ["conversations:label"]);
    const elsewhere = await t.app.inject({ method: "PUT", url: `${API}/conversations/${session.conversationId}/labels/${label.id}`, headers: { authorization: `Bearer ${outsiderToken}` } });
    expect(elsewhere.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `${API}/labels`, headers: { authorization: `Bearer ${outsiderToken}` } })).json().data).not.toContainEqual(expect.objectContaining({ id: label.id }));
    // The console's session is no key to the workspace API.
    expect((await t.app.inject({ method: "GET", url: `${API}/labels`, headers: admin.headers })).statusCode).toBe(401);
  });

  it("happy: a visitor's erasure takes their conversations' labels with them, the labels stay the workspace's; the export names them", async () => {
    const label = await createLabel(admin, "Erasable", "#cf222e");
    const session = await conversationOf(tenant.agentId);
    await call(agentOperator, "PUT", `/conversations/${session.conversationId}/labels/${label.id}`);
    const exported = await call(admin, "GET", `/visitors/${session.visitorId}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().data.conversations[0].labels).toEqual(["Erasable"]);
    const erased = await call(admin, "DELETE", `/visitors/${session.visitorId}`);
    expect(erased.statusCode, erased.body).toBe(204);
    const { rows } = await t.services.db.query(`SELECT 1 FROM conversation_labels WHERE conversation_id = $1`, [session.conversationId]);
    expect(rows).toEqual([]);
    expect((await call(admin, "GET", "/labels")).json().data.map((row: { name: string }) => row.name)).toContain("Erasable");
  });
});
