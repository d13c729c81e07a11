import type { ErasureCounts } from "@frontdesk/contracts";
import { conversationDeletedEventSchema, visitorExportSchema } from "@frontdesk/contracts";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { parseAdminArguments } from "../../src/cli/admin-arguments.js";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { lockVisitorOfWorkspace } from "../../src/conversations/visitor-data.js";
import { deleteVisitorData } from "../../src/privacy/delete-visitor-data.js";
import { servicesDeletionAnnouncer } from "../../src/privacy/announce-deleted-conversations.js";
import { effectiveRetentionDays, purgeStaleConversations } from "../../src/privacy/purge-stale-conversations.js";
import { registerRetentionWorker } from "../../src/privacy/register-retention-worker.js";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { adminOf, bearer, seedTenant, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { formData } from "../support/generated-files.js";

/** A 1×1 PNG: the photo each visitor sends with their first message (attachments are theirs too). */
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const W = "/api/v1/widget";

/**
 * Every table of the schema, sorted into those that can hold a visitor's data (erasure must empty
 * them of the visitor) and those that cannot. A new table fails this test until it is sorted here,
 * and, when it holds visitor data, until erasure (src/privacy/erasure-repository.ts) deletes it.
 */
const VISITOR_DATA_TABLES = ["visitors", "conversations", "messages", "leads", "events", "inbox_notifications", "conversation_reads", "webhook_events", "message_idempotency_keys", "mail_messages", "mail_checks", "conversation_notes", "conversation_labels", "attachments"];
/**
 * Tables of visitor data that only the mail workers fill (attempts of a sent mail, an operator's
 * digest items, the replies received by e-mail): sorted here, and shown emptied by erasure in
 * test/mail/mail-notifications.test.ts and test/mail/inbound-mail.test.ts.
 */
const WORKER_VISITOR_DATA_TABLES = ["mail_attempts", "mail_digest_items", "mail_inbound"];
/**
 * Tables of visitor data that only an operator's action fills (a reply sent with an Idempotency-Key
 * keeps the reply): sorted here, and shown emptied by erasure in test/conversations/operator-reply-keys.test.ts.
 */
const OPERATOR_VISITOR_DATA_TABLES = ["operator_reply_keys"];
const OTHER_TABLES = [
  "workspaces", // retention_days; a quota
  "agents",
  "operators",
  "operator_password_tokens",
  "operator_sessions",
  "operator_recovery_codes", // hashes of an operator's two-factor recovery codes (migration 0048)
  "api_tokens",
  "conversation_counters", // a count per month: nobody in it
  "sources",
  "source_texts",
  "documents",
  "chunks",
  "knowledge_revisions",
  "lexeme_statistics", // counts of the words of an agent's site content (migration 0052): no visitor's words
  "setup_tokens",
  "curated_answers", // written by operators; a question still in a visitor's words is emptied by their erasure (test/webhooks/erasure-leaves-nothing.test.ts)
  "erasures", // counts only, checked below
  "schema_migrations",
  "wordpress_posts", // a site's posts pushed by its WordPress plugin (migration 0018)
  "webhook_endpoints", // a workspace's receivers (migration 0019)
  "webhook_deliveries", // event ids, types and outcomes of deliveries; the body is in webhook_events, a receiver's answer is cleared by erasure
  "mail_alert_preferences", // an operator's choice of e-mail alerts (migration 0032)
  "push_subscriptions", // an operator's devices for Web Push alerts (migration 0034)
  "answer_tests", // written by operators; one made from a visitor's message is deleted by their erasure (test/answer-tests/answer-tests.test.ts)
  "answer_test_runs", // counts of a run of an agent's tests
  "answer_test_results", // the agent's answers to its tests' questions; deleted with their test
  "workspace_model_providers", // a workspace's answer model and its sealed key (migration 0036)
  "workspace_sso", // a workspace's OpenID provider for operators' sign-in, its client secret sealed (migration 0049)
  "embedding_generations", // a workspace's embeddings choices and re-embedding progress (migration 0039)
  "source_files", // an owner's uploaded files, the knowledge of a file source (migration 0042)
  "saved_replies", // operators' reply templates, the workspace's and their own (migration 0043)
  "labels", // a workspace's label names and colours (migration 0044); which conversation carries one is conversation_labels
];

/** What one visitor did, with markers that must disappear with them. */
interface Footprint {
  marker: string;
  email: string;
  sessions: StartedSession[];
}

describeEachStore("visitor erasure, export and retention on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;
  let labelId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
      FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: "1000",
      FRONTDESK_RATE_LIMIT_SATISFACTION_PER_MINUTE: "1000",
      // A webhook endpoint on loopback: no worker delivers here, so its deliveries stay queued, event data and all.
      FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1",
    });
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t));
    const endpoint = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/webhooks`,
      headers: admin.headers,
      payload: { url: "http://127.0.0.1:9/hooks", events: ["lead.created", "lead.updated", "human.requested", "satisfaction.rated", "message.rated", "conversation.closed"] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    await runAdminCommand(adminOf(t.services), { command: "agent.update", agentId: tenant.agentId, vertical: "ecommerce" });
    const label = await t.app.inject({ method: "POST", url: `${CONSOLE}/labels`, headers: admin.headers, payload: { name: "Delivery", colour: "#1f6feb" } });
    expect(label.statusCode, label.body).toBe(201);
    labelId = label.json().data.id;
  }, 120_000);
  afterAll(() => t.close());

  const post = async (session: StartedSession, path: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await t.app.inject({ method: "POST", url: `${W}${path}`, headers: { ...bearer(session.jwt), ...headers }, payload });
    expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
    return response;
  };

  /** A visitor with two conversations and every kind of data: messages, ratings of answers, a lead, events, a rating, a coupon, a request for a person (notifications), a read mark. */
  const visit = async (agentId: string, name: string): Promise<Footprint> => {
    const marker = `${name}-${Math.random().toString(36).slice(2, 10)}`;
    const email = `${marker}@visitors.test`;
    const first = await startSession(t.app, agentId);
    const second = await startSession(t.app, agentId, { anon_id: first.anonymousId, new_conversation: true });
    expect(second.visitorId).toBe(first.visitorId);
    for (const session of [first, second]) {
      // A photo, sent with the question: the attachment (its bytes and all) is the visitor's too.
      const photo = await t.app.inject({ method: "POST", url: `${W}/attachments`, headers: bearer(session.jwt), payload: formData({}, { name: `parcel-${marker}.png`, bytes: PIXEL_PNG }) });
      expect(photo.statusCode, photo.body).toBe(201);
      // With an Idempotency-Key, as the widget sends them: the key's row (and its kept answer) is the visitor's too.
      const asked = await post(
        session,
        "/messages",
        { message: `Where is my parcel ${marker}?`, page_url: `https://shop.example.com/orders/${marker}`, attachment_ids: [photo.json().data.id] },
        { "idempotency-key": `key-${marker}` },
      );
      // The visitor rates the bot's answer, with words of their own.
      await post(session, `/messages/${asked.json().data.message_id}/feedback`, { rating: "down", comment: `Not my parcel ${marker}` });
      await post(session, "/events", { event: "launcher.open", metadata: { note: marker } });
    }
    await post(first, "/leads", { name: `Name ${marker}`, email, phone: "+44 20 7946 0000", fields: { note: marker } });
    await post(first, "/satisfaction", { rating: "good", comment: `Thanks ${marker}` });
    if (agentId === tenant.agentId) await post(first, "/coupon/apply", { code: "SPRING-10" });
    await post(second, "/request-human", { reason: `Call me ${marker}` });
    // A transcript by e-mail: no SMTP here, so it waits in the outbox, the visitor's words and address in it.
    await post(first, "/conversation/transcript", {});
    if (agentId === tenant.agentId) {
      const read = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${second.conversationId}/read`, headers: agentOperator.headers, payload: {} });
      expect(read.statusCode).toBe(200);
      // An operator's internal note about them: operators' words, but about this visitor's conversation.
      const noted = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${second.conversationId}/notes`, headers: agentOperator.headers, payload: { content: `Called back about ${marker}` } });
      expect(noted.statusCode, noted.body).toBe(201);
      // An operator's label on the conversation: the link goes with it.
      const labelled = await t.app.inject({ method: "PUT", url: `${CONSOLE}/conversations/${first.conversationId}/labels/${labelId}`, headers: agentOperator.headers });
      expect(labelled.statusCode, labelled.body).toBe(200);
    }
    const footprint = { marker, email, sessions: [first, second] };
    // In the tenant's workspace, the lead, the rating and the request for a person wait as webhook
    // events (their jobs name them by id): wait for them, so that every snapshot sees them.
    if (agentId === tenant.agentId) await expect.poll(async () => (await traces(footprint, ["webhook_events"]))["webhook_events"] ?? 0).toBeGreaterThanOrEqual(3);
    return footprint;
  };

  /** The rows of every table, as text, that mention the visitor: their ids, anonymous id, e-mail or marker. */
  const traces = async (footprint: Footprint, tables: string[]) => {
    const needles = [footprint.marker, footprint.email, footprint.sessions[0]!.visitorId, footprint.sessions[0]!.anonymousId, ...footprint.sessions.map((s) => s.conversationId)];
    const found: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await t.services.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} row WHERE ${needles.map((_, index) => `strpos(row::text, $${index + 1}) > 0`).join(" OR ")}`,
        needles,
      );
      if (rows[0]!.n > 0) found[table] = rows[0]!.n;
    }
    return found;
  };
  const publicTables = async () =>
    (await t.services.db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)).rows
      .map((row) => row.table_name)
      .sort();
  const everyTable = async () => [...(await publicTables()), "pgboss.job", "pgboss.archive"];
  const erasureRows = async (workspaceId: string) =>
    (
      await t.services.db.query<{ id: string; agent_id: string | null; scope: string; requested_by: string; operator_id: string | null; counts: ErasureCounts }>(
        `SELECT id, agent_id, scope, requested_by, operator_id, counts FROM erasures WHERE workspace_id = $1 ORDER BY created_at, id`,
        [workspaceId],
      )
    ).rows;

  it("happy: every table of the schema is sorted into visitor data or not (a new table must be, and erased if it holds visitor data)", async () => {
    const tables = await publicTables();
    expect(tables.filter((table) => !VISITOR_DATA_TABLES.includes(table) && !WORKER_VISITOR_DATA_TABLES.includes(table) && !OPERATOR_VISITOR_DATA_TABLES.includes(table) && !OTHER_TABLES.includes(table))).toEqual([]);
    expect(VISITOR_DATA_TABLES.filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("happy: DELETE /widget/me erases the visitor everywhere, keeps another visitor's data, leaves an audit record without personal data, and revokes the token", async () => {
    const erased = await visit(tenant.agentId, "erased");
    const kept = await visit(tenant.agentId, "kept");
    const tables = await everyTable();
    expect(Object.keys(await traces(erased, VISITOR_DATA_TABLES)).sort()).toEqual([...VISITOR_DATA_TABLES].sort());
    const keptBefore = await traces(kept, tables);
    const before = t.published.length;

    const response = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: { ...bearer(erased.sessions[0]!.jwt), origin: "https://shop.example.com" } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
    expect(response.headers["x-ratelimit-limit"]).toBe("1000");

    expect(await traces(erased, tables)).toEqual({});
    expect(await traces(kept, tables)).toEqual(keptBefore);
    // The erased visitor's queued deliveries are dropped, and logged as skipped without their data.
    const skipped = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'skipped' AND error LIKE '%erased%'`);
    expect(skipped.rows[0]!.n).toBeGreaterThanOrEqual(3);

    const audits = await erasureRows(tenant.workspaceId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      id: expect.stringMatching(/^era_/),
      agent_id: tenant.agentId,
      scope: "visitor",
      requested_by: "visitor",
      operator_id: null,
      counts: { visitors: 1, conversations: 2, leads: 1, events: 2, satisfaction_ratings: 1, answer_ratings: 2, coupons: 1, notifications: 2 },
    });
    expect(audits[0]!.counts.messages).toBeGreaterThanOrEqual(4);

    // Open consoles are told, on the workspace channel, for each conversation.
    const deleted = t.published.slice(before).filter((event) => event.type === "conversation.deleted");
    expect(deleted.map((event) => event.type === "conversation.deleted" && event.conversationId).sort()).toEqual(erased.sessions.map((s) => s.conversationId).sort());
    expect(deleted.every((event) => event.type === "conversation.deleted" && event.reason === "erasure" && event.workspaceId === tenant.workspaceId)).toBe(true);

    // The token is revoked: every other route refuses it, in the error shape.
    for (const session of erased.sessions) {
      const read = await t.app.inject({ method: "GET", url: `${W}/conversation`, headers: bearer(session.jwt) });
      expect(read.statusCode).toBe(401);
      expect(read.json()).toEqual({ error: { code: "invalid_token", message: expect.any(String) } });
      const message = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "hello again" } });
      expect(message.statusCode).toBe(401);
      expect(message.json().error.code).toBe("invalid_token");
    }
    expect(await traces(erased, tables)).toEqual({});

    // Idempotent: the same token again (a retry after a lost answer) is 204 and changes nothing; no second audit record.
    const again = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: bearer(erased.sessions[1]!.jwt) });
    expect(again.statusCode).toBe(204);
    expect(await erasureRows(tenant.workspaceId)).toHaveLength(1);
    expect(await traces(kept, tables)).toEqual(keptBefore);

    // The kept visitor's session still works.
    const alive = await t.app.inject({ method: "GET", url: `${W}/conversation`, headers: bearer(kept.sessions[1]!.jwt) });
    expect(alive.statusCode).toBe(200);
  });

  it("error: DELETE /widget/me without a token, with a forged or an expired one is 401 and erases nothing", async () => {
    const visitor = await visit(tenant.agentId, "guarded");
    const tables = await everyTable();
    const before = await traces(visitor, tables);
    const missing = await t.app.inject({ method: "DELETE", url: `${W}/me` });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.code).toBe("missing_token");
    const jwt = visitor.sessions[0]!.jwt;
    const forged = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: bearer(`${jwt.slice(0, -4)}AAAA`) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.code).toBe("invalid_token");
    t.clock.offsetMs = 2 * 3600 * 1000;
    try {
      const expired = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: bearer(jwt) });
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error.code).toBe("token_expired");
    } finally {
      t.clock.offsetMs = 0;
    }
    expect(await traces(visitor, tables)).toEqual(before);
  });

  it("error: a visitor erased by another process while this one still holds their session (cached) gets 401 for every write, never a 500", async () => {
    const visitor = await visit(tenant.agentId, "elsewhere-erased");
    const [session] = visitor.sessions;
    // What another process's erasure does to the store, without this process's session cache hearing of it.
    await t.services.db.transaction(async (tx) => {
      const locked = await lockVisitorOfWorkspace(tx, tenant.workspaceId, session!.visitorId, tenant.agentId);
      await deleteVisitorData(tx, locked!);
    });
    for (const [path, payload] of [
      ["/messages", { message: "Are you still there?" }],
      ["/events", { event: "launcher.open" }],
      ["/leads", { name: "Late", email: "late@visitors.test" }],
      ["/request-human", { reason: "Anyone?" }],
    ] as const) {
      const response = await t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(session!.jwt), payload });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(401);
      expect(response.json().error.code).toBe("invalid_token");
    }
    expect(await traces(visitor, await publicTables())).toEqual({});
  });

  it("happy: the console exports a visitor's data (admins), then erases them; the audit names the operator", async () => {
    const visitor = await visit(tenant.agentId, "console");
    const kept = await visit(tenant.agentId, "console-kept");
    const visitorId = visitor.sessions[0]!.visitorId;

    const exported = await t.app.inject({ method: "GET", url: `${CONSOLE}/visitors/${visitorId}/export`, headers: admin.headers });
    expect(exported.statusCode).toBe(200);
    const data = visitorExportSchema.parse(exported.json().data);
    expect(data).toMatchObject({ format: "frontdesk.visitor-export.v1", workspace_id: tenant.workspaceId, agent_id: tenant.agentId, visitor: { id: visitorId, anonymous_id: visitor.sessions[0]!.anonymousId } });
    expect(data.conversations.map((conversation) => conversation.id)).toEqual(visitor.sessions.map((session) => session.conversationId));
    const [first, second] = data.conversations;
    expect(first!.satisfaction).toMatchObject({ rating: "good", comment: `Thanks ${visitor.marker}` });
    expect(first!.coupon).toMatchObject({ code: "SPRING-10" });
    expect(second!.human_request_reason).toBe(`Call me ${visitor.marker}`);
    expect(first!.last_page_url).toBe(`https://shop.example.com/orders/${visitor.marker}`);
    for (const conversation of data.conversations) {
      expect(conversation.messages.filter((message) => message.role === "visitor").map((message) => message.content)).toEqual([`Where is my parcel ${visitor.marker}?`]);
      expect(conversation.messages.some((message) => message.role === "bot")).toBe(true);
      // The visitor's rating of the bot's answer is theirs: exported on the answer, and nothing else carries one.
      expect(conversation.messages.filter((message) => message.rating).map((message) => [message.role, message.rating])).toEqual([
        ["bot", { rating: "down", comment: `Not my parcel ${visitor.marker}`, rated_at: expect.any(String) }],
      ]);
    }
    expect(data.leads).toEqual([expect.objectContaining({ email: visitor.email, name: `Name ${visitor.marker}`, fields: { note: visitor.marker } })]);
    expect(data.events.map((event) => [event.event, event.metadata])).toEqual([
      ["launcher.open", { note: visitor.marker }],
      ["launcher.open", { note: visitor.marker }],
    ]);
    expect(JSON.stringify(data)).not.toContain(kept.marker);
    // Their attachments: metadata, and a link to the bytes (signed for an hour) that opens without a session.
    expect(data.attachments.map((attachment) => [attachment.conversation_id, attachment.uploaded_by, attachment.media_type, attachment.filename])).toEqual(
      visitor.sessions.map((session) => [session.conversationId, "visitor", "image/png", `parcel-${visitor.marker}.png`]),
    );
    const link = new URL(data.attachments[0]!.url);
    expect((await t.app.inject({ method: "GET", url: `${link.pathname}${link.search}` })).statusCode).toBe(200);

    const tables = await everyTable();
    const keptBefore = await traces(kept, tables);
    const erased = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/visitors/${visitorId}`, headers: admin.headers });
    expect(erased.statusCode).toBe(204);
    expect(await traces(visitor, tables)).toEqual({});
    expect(await traces(kept, tables)).toEqual(keptBefore);
    const audit = (await erasureRows(tenant.workspaceId)).at(-1)!;
    expect(audit).toMatchObject({ scope: "visitor", requested_by: "operator", operator_id: admin.operator.id, counts: { visitors: 1, conversations: 2 } });

    // Already erased: nothing is kept to recognise the visitor by, so it is an unknown visitor.
    const again = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/visitors/${visitorId}`, headers: admin.headers });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe("visitor_not_found");
    const exportAgain = await t.app.inject({ method: "GET", url: `${CONSOLE}/visitors/${visitorId}/export`, headers: admin.headers });
    expect(exportAgain.statusCode).toBe(404);
  });

  it("security: agents get 403, another workspace's admin 404, no session 401, a bad id 422, and nothing is erased", async () => {
    const visitor = await visit(tenant.agentId, "guarded-console");
    const visitorId = visitor.sessions[0]!.visitorId;
    const tables = await everyTable();
    const before = await traces(visitor, tables);
    const audits = (await erasureRows(tenant.workspaceId)).length;
    const call = (method: "DELETE" | "GET", path: string, headers: Record<string, string>) => t.app.inject({ method, url: `${CONSOLE}${path}`, headers });

    for (const [method, path] of [
      ["DELETE", `/visitors/${visitorId}`],
      ["GET", `/visitors/${visitorId}/export`],
    ] as const) {
      const asAgent = await call(method, path, agentOperator.headers);
      expect(asAgent.statusCode).toBe(403);
      expect(asAgent.json().error.code).toBe("forbidden");
      const asOutsider = await call(method, path, outsider.headers);
      expect(asOutsider.statusCode).toBe(404);
      expect(asOutsider.json()).toEqual({ error: { code: "visitor_not_found", message: expect.any(String) } });
      const anonymous = await call(method, path, {});
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe("unauthenticated");
    }
    const badId = await call("DELETE", `/visitors/${encodeURIComponent("vis_1;drop")}`, admin.headers);
    expect(badId.statusCode).toBe(422);
    expect(badId.json().error.code).toBe("validation_failed");
    const badExport = await call("GET", `/visitors/${encodeURIComponent("a b")}/export`, admin.headers);
    expect(badExport.statusCode).toBe(422);
    const unknown = await call("DELETE", `/visitors/vis_unknown`, admin.headers);
    expect(unknown.statusCode).toBe(404);
    // A state-changing request from another origin is refused before anything else.
    const crossSite = await call("DELETE", `/visitors/${visitorId}`, { cookie: admin.headers.cookie, origin: "https://evil.example" });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error.code).toBe("csrf_origin_mismatch");

    expect(await traces(visitor, tables)).toEqual(before);
    expect(await erasureRows(tenant.workspaceId)).toHaveLength(audits);
  });

  it("happy: the CLI's visitor export and erase use the same erasure (workspace-scoped), and its arguments parse", async () => {
    expect(parseAdminArguments(["visitor", "erase", "--workspace", "ws_1", "--visitor", "vis_1"])).toEqual({ command: "visitor.erase", workspaceId: "ws_1", visitorId: "vis_1" });
    expect(parseAdminArguments(["visitor", "export", "--workspace", "ws_1", "--visitor", "vis_1"])).toEqual({ command: "visitor.export", workspaceId: "ws_1", visitorId: "vis_1" });
    expect(() => parseAdminArguments(["visitor", "erase", "--workspace", "ws_1"])).toThrow("--visitor is required");

    const visitor = await visit(other.agentId, "cli");
    const visitorId = visitor.sessions[0]!.visitorId;
    const context = { ...adminOf(t.services), publish: (event: (typeof t.published)[number]) => t.services.bus.publish(event) };
    // Scoped: the visitor is not the tenant's.
    await expect(runAdminCommand(context, { command: "visitor.erase", workspaceId: tenant.workspaceId, visitorId })).rejects.toMatchObject({ code: "visitor_not_found" });
    const exported = visitorExportSchema.parse(await runAdminCommand(context, { command: "visitor.export", workspaceId: other.workspaceId, visitorId }));
    expect(exported.conversations).toHaveLength(2);
    const before = t.published.length;
    const result = (await runAdminCommand(context, { command: "visitor.erase", workspaceId: other.workspaceId, visitorId })) as { erased: boolean; erasure_id: string; counts: ErasureCounts };
    expect(result).toMatchObject({ erased: true, erasure_id: expect.stringMatching(/^era_/), counts: { visitors: 1, conversations: 2, leads: 1 } });
    expect(await traces(visitor, await everyTable())).toEqual({});
    expect(t.published.slice(before).filter((event) => event.type === "conversation.deleted")).toHaveLength(2);
    expect(await erasureRows(other.workspaceId)).toEqual([expect.objectContaining({ id: result.erasure_id, requested_by: "cli", operator_id: null })]);
    await expect(runAdminCommand(context, { command: "visitor.erase", workspaceId: other.workspaceId, visitorId })).rejects.toMatchObject({ code: "visitor_not_found" });
  });

  it("happy: conversation.deleted goes to the workspace's consoles and the conversation's channel, in its contract's shape", () => {
    const broadcasts = broadcastsOf({ type: "conversation.deleted", workspaceId: "ws_1", agentId: "agt_1", conversationId: "cnv_1", reason: "erasure", at: "2026-01-01T00:00:00.000Z" });
    expect(broadcasts.map((broadcast) => [broadcast.channel, broadcast.event])).toEqual([
      ["private-workspace.ws_1", "conversation.deleted"],
      ["private-conversation.cnv_1", "conversation.deleted"],
    ]);
    for (const broadcast of broadcasts) {
      expect(conversationDeletedEventSchema.strict().parse(broadcast.payload)).toEqual({ conversation_id: "cnv_1", agent_id: "agt_1", reason: "erasure", deleted_at: "2026-01-01T00:00:00.000Z" });
    }
  });

  it("happy: no audit record holds an identifier or content of the people erased; the CLI lists a workspace's, newest first", async () => {
    const { rows } = await t.services.db.query<{ row: string }>(`SELECT e::text AS row FROM erasures e`);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const { row } of rows) {
      expect(row).not.toMatch(/vis_|cnv_|msg_|lead_|anon|@/);
    }
    expect(parseAdminArguments(["erasure", "list", "--workspace", "ws_1"])).toEqual({ command: "erasure.list", workspaceId: "ws_1" });
    const listed = (await runAdminCommand(adminOf(t.services), { command: "erasure.list", workspaceId: tenant.workspaceId })) as { id: string; requested_by: string; created_at: string }[];
    const stored = await erasureRows(tenant.workspaceId);
    expect(listed.map((record) => record.id).sort()).toEqual(stored.map((record) => record.id).sort());
    expect(listed.map((record) => record.requested_by)).toEqual(expect.arrayContaining(["visitor", "operator"]));
    expect([...listed].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id))).toEqual(listed);
    await expect(runAdminCommand(adminOf(t.services), { command: "erasure.list", workspaceId: "ws_missing" })).rejects.toMatchObject({ code: "not_found" });
  });

  const ageConversation = (conversationId: string, days: number) =>
    t.services.db.query(`UPDATE conversations SET last_activity_at = now() - make_interval(days => $2) WHERE id = $1`, [conversationId, days]);
  const conversationsLeft = async (ids: string[]) =>
    (await t.services.db.query<{ id: string }>(`SELECT id FROM conversations WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id`, [JSON.stringify(ids)])).rows.map((row) => row.id).sort();
  const visitorExists = async (visitorId: string) => (await t.services.db.query(`SELECT 1 FROM visitors WHERE id = $1`, [visitorId])).rows.length === 1;

  it("happy: the retention purge deletes only conversations idle past the workspace's period, in batches, keeps leads, and audits each batch", async () => {
    const kept = await seedTenant(t.services);
    const purged = await seedTenant(t.services);
    await runAdminCommand(adminOf(t.services), { command: "workspace.set-retention", workspaceId: purged.workspaceId, retentionDays: 30 });
    const stale = await visit(purged.agentId, "stale"); // both conversations idle 40 days
    const mixed = await visit(purged.agentId, "mixed"); // one idle 40 days, one 10
    const fresh = await visit(purged.agentId, "fresh");
    const elsewhere = await visit(kept.agentId, "elsewhere"); // idle 400 days, in a workspace without a period
    for (const session of [...stale.sessions, mixed.sessions[0]!]) await ageConversation(session.conversationId, 40);
    await ageConversation(mixed.sessions[1]!.conversationId, 10);
    for (const session of elsewhere.sessions) await ageConversation(session.conversationId, 400);
    const staleIds = [...stale.sessions, mixed.sessions[0]!].map((session) => session.conversationId);
    const liveIds = [mixed.sessions[1]!, ...fresh.sessions, ...elsewhere.sessions].map((session) => session.conversationId);
    const tables = await everyTable();
    const freshBefore = await traces(fresh, tables);
    const before = t.published.length;

    const result = await purgeStaleConversations(
      { db: t.services.db, announce: servicesDeletionAnnouncer(t.services) },
      { days: null, includeLeads: false, now: t.services.now(), batchSize: 2 },
    );
    expect(result).toMatchObject({ workspaces: 1, counts: { conversations: 3, visitors: 1, leads: 0, satisfaction_ratings: 2 } });
    expect(await conversationsLeft([...staleIds, ...liveIds])).toEqual([...liveIds].sort());
    expect(await traces(fresh, tables)).toEqual(freshBefore);
    // The stale visitor is gone but for their lead (kept, pointing at nobody); the mixed one stays with their live conversation.
    expect(await traces(stale, tables)).toEqual({ leads: 1 });
    const { rows: leads } = await t.services.db.query<{ visitor_id: string | null; conversation_id: string | null }>(`SELECT visitor_id, conversation_id FROM leads WHERE email = $1`, [stale.email]);
    expect(leads).toEqual([{ visitor_id: null, conversation_id: null }]);
    expect(await visitorExists(stale.sessions[0]!.visitorId)).toBe(false);
    expect(await visitorExists(mixed.sessions[0]!.visitorId)).toBe(true);
    const { rows: mixedMessages } = await t.services.db.query(`SELECT 1 FROM messages WHERE conversation_id = $1`, [mixed.sessions[0]!.conversationId]);
    expect(mixedMessages).toEqual([]);
    // Attachments go with their conversation, bytes and all; the live conversation keeps its own.
    const attachmentsOf = async (conversationId: string) =>
      (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM attachments WHERE conversation_id = $1`, [conversationId])).rows[0]!.n;
    expect([await attachmentsOf(mixed.sessions[0]!.conversationId), await attachmentsOf(mixed.sessions[1]!.conversationId)]).toEqual([0, 1]);

    const audits = await erasureRows(purged.workspaceId);
    expect(audits.map((audit) => [audit.scope, audit.requested_by, audit.counts.conversations])).toEqual([
      ["retention", "retention", 2],
      ["retention", "retention", 1],
    ]);
    expect(await erasureRows(kept.workspaceId)).toEqual([]);
    const deleted = t.published.slice(before).filter((event) => event.type === "conversation.deleted");
    expect(deleted.map((event) => event.type === "conversation.deleted" && [event.conversationId, event.reason])).toEqual(
      expect.arrayContaining(staleIds.map((id) => [id, "retention"])),
    );
    expect(deleted).toHaveLength(3);

    // A deployment-wide period reaches the other workspace; a workspace set to 0 keeps everything.
    await runAdminCommand(adminOf(t.services), { command: "workspace.set-retention", workspaceId: purged.workspaceId, retentionDays: 0 });
    await ageConversation(fresh.sessions[0]!.conversationId, 1000);
    const deployment = await purgeStaleConversations({ db: t.services.db }, { days: 365, includeLeads: true, now: t.services.now() });
    expect(deployment.counts).toMatchObject({ conversations: 2, visitors: 1, leads: 1 });
    expect(await traces(elsewhere, tables)).toEqual({});
    expect(await conversationsLeft([fresh.sessions[0]!.conversationId])).toEqual([fresh.sessions[0]!.conversationId]);
  });

  it("happy: the retention job is scheduled hourly in pg-boss, and a run of it purges", async () => {
    const workspace = await seedTenant(t.services);
    await runAdminCommand(adminOf(t.services), { command: "workspace.set-retention", workspaceId: workspace.workspaceId, retentionDays: 7 });
    const visitor = await visit(workspace.agentId, "job");
    for (const session of visitor.sessions) await ageConversation(session.conversationId, 8);
    await registerRetentionWorker(t.services, pino({ level: "silent" }));
    const { rows } = await t.services.db.query<{ name: string; cron: string }>(`SELECT name, cron FROM pgboss.schedule WHERE name = 'purge-retention'`);
    expect(rows).toEqual([{ name: "purge-retention", cron: "17 * * * *" }]);
    await t.services.jobs.send("purge-retention", {});
    await expect.poll(() => visitorExists(visitor.sessions[0]!.visitorId), { timeout: 20_000, interval: 50 }).toBe(false);
    expect(await traces(visitor, await everyTable())).toEqual({ leads: 1 });
  });

  it("happy: the retention settings: FRONTDESK_RETENTION_DAYS validated, off by default; a workspace's override set by the CLI", async () => {
    expect(loadConfig({}).retention).toEqual({ days: null, includeLeads: false });
    expect(loadConfig({ FRONTDESK_RETENTION_DAYS: "30", FRONTDESK_RETENTION_INCLUDE_LEADS: "true" }).retention).toEqual({ days: 30, includeLeads: true });
    for (const bad of ["0", "-1", "1.5", "thirty", "40000"]) {
      expect(() => loadConfig({ FRONTDESK_RETENTION_DAYS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ FRONTDESK_RETENTION_DAYS: bad })).toThrow(/FRONTDESK_RETENTION_DAYS/);
    }
    expect(() => loadConfig({ FRONTDESK_RETENTION_INCLUDE_LEADS: "maybe" })).toThrow(/FRONTDESK_RETENTION_INCLUDE_LEADS/);
    expect([effectiveRetentionDays(null, 30), effectiveRetentionDays(0, 30), effectiveRetentionDays(10, null), effectiveRetentionDays(null, null)]).toEqual([30, null, 10, null]);

    expect(parseAdminArguments(["workspace", "set-retention", "ws_1", "--days", "90"])).toEqual({ command: "workspace.set-retention", workspaceId: "ws_1", retentionDays: 90 });
    expect(parseAdminArguments(["workspace", "set-retention", "ws_1", "--default"])).toEqual({ command: "workspace.set-retention", workspaceId: "ws_1", retentionDays: null });
    expect(() => parseAdminArguments(["workspace", "set-retention", "ws_1"])).toThrow("--days N or --default");
    expect(() => parseAdminArguments(["workspace", "set-retention", "ws_1", "--days", "9", "--default"])).toThrow("--days N or --default");
    const context = adminOf(t.services);
    expect(await runAdminCommand(context, { command: "workspace.set-retention", workspaceId: tenant.workspaceId, retentionDays: 90 })).toEqual({ workspace_id: tenant.workspaceId, retention_days: 90 });
    await expect(runAdminCommand(context, { command: "workspace.set-retention", workspaceId: "ws_missing", retentionDays: 9 })).rejects.toMatchObject({ code: "not_found" });
    await expect(runAdminCommand(context, { command: "workspace.set-retention", workspaceId: tenant.workspaceId, retentionDays: -1 })).rejects.toMatchObject({ code: "validation_failed" });
    await runAdminCommand(context, { command: "workspace.set-retention", workspaceId: tenant.workspaceId, retentionDays: null });
  });
});
