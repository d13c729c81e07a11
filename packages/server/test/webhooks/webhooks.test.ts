import { createHmac } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { WebhookDelivery, WebhookEndpoint } from "@frontdesk/contracts";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { parseAdminArguments } from "../../src/cli/admin-arguments.js";
import { newId } from "../../src/db/ids.js";
import type { DocumentCounts } from "../../src/ingest/document-repository.js";
import { settleSource } from "../../src/ingest/settle-source.js";
import { insertSourceUnlessDuplicate, type SourceOutcome } from "../../src/sources/source-repository.js";
import { queueWebhookEvent } from "../../src/webhooks/queue-webhook-event.js";
import { registerWebhookWorkers } from "../../src/webhooks/register-webhook-workers.js";
import { insertWebhookEndpoint } from "../../src/webhooks/webhook-endpoint-repository.js";
import { createWebhookServices, type WebhookServices } from "../../src/webhooks/webhook-services.js";
import { verifyWebhookSignature } from "../../src/webhooks/webhook-signature.js";
import { rateConversation } from "../../src/conversations/widget-conversation-repository.js";
import { CONSOLE, type ConsoleSession, createSignedInOperator, seedConsoleCast } from "../support/console-session.js";
import { adminOf, bearer, seedTenant, SITE_ORIGIN, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { LoopbackReceiver } from "./loopback-receiver.js";

type CreatedEndpoint = WebhookEndpoint & { secret: string };

const ALL_EVENTS = ["lead.created", "lead.updated", "human.requested", "conversation.closed", "satisfaction.rated", "source.indexed", "source.failed"] as const;

describeEachStore("outbound webhooks on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;
  let workers: { close(): Promise<void> };
  let webhooks: WebhookServices;
  const receiver = new LoopbackReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp(kind, {
      // The loopback receiver's address, and nothing else private, is allowed.
      FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1",
      FRONTDESK_WEBHOOK_ATTEMPTS: "3",
      FRONTDESK_WEBHOOK_RETRY_BASE_MS: "1",
      FRONTDESK_WEBHOOK_DISABLE_AFTER_FAILURES: "2",
      FRONTDESK_WEBHOOK_TIMEOUT_SECONDS: "20",
      // Fairness has its own tests (webhook-fairness.test.ts): here one workspace's tests share it, and failures are wanted.
      FRONTDESK_WEBHOOK_WORKSPACE_CONCURRENCY: "4",
      FRONTDESK_WEBHOOK_CIRCUIT_FAILURES: "100",
    });
    ({ tenant, admin, agentOperator, outsider } = await seedConsoleCast(t));
    // DNS as the deliveries see it: one name resolving to the receiver, one to a private address.
    const resolve = async (host: string) => [{ address: host === "rebound.test" ? "10.0.0.7" : "127.0.0.1", family: 4 as const }];
    workers = await registerWebhookWorkers(t.services, pino({ level: "silent" }), { resolve });
    webhooks = await createWebhookServices(t.services.config);
  });
  afterAll(async () => {
    receiver.release();
    await t.close();
    await workers.close();
    await webhooks.close();
    await receiver.close();
  });

  const create = async (session: ConsoleSession, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks`, headers: session.headers, payload });
  const createEndpoint = async (path: string, events: readonly string[], session = admin): Promise<CreatedEndpoint> => {
    const response = await create(session, { url: receiver.on(path, (res) => res.end("ok")) , events });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const deliveries = async (endpointId: string, session = admin): Promise<WebhookDelivery[]> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/webhooks/${endpointId}/deliveries?limit=100`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const endpointOf = async (endpointId: string): Promise<WebhookEndpoint> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/webhooks`, headers: admin.headers });
    return (response.json().data as WebhookEndpoint[]).find((endpoint) => endpoint.id === endpointId)!;
  };
  const settled = (list: WebhookDelivery[]) => list.length > 0 && list.every((delivery) => delivery.status !== "pending" && delivery.status !== "sending");
  const leave = (jwt: string, email: string) =>
    t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: { ...bearer(jwt), origin: SITE_ORIGIN }, payload: { email, name: "Ada" } });
  const widgetPost = (jwt: string, path: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: "POST", url: `/api/v1/widget${path}`, headers: { ...bearer(jwt), origin: SITE_ORIGIN }, payload });

  it("happy: the secret is shown once and stored encrypted; a lead is delivered signed with it, verifiable by the receiver", async () => {
    const endpoint = await createEndpoint("/signed", ["lead.created"]);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toMatchObject({ workspace_id: tenant.workspaceId, events: ["lead.created"], enabled: true, secret_prefix: endpoint.secret.slice(0, 10) });
    const listed = await endpointOf(endpoint.id);
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret.slice(10));
    const { rows } = await t.services.db.query<{ secret_ciphertext: string }>(`SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(rows[0]!.secret_ciphertext).not.toContain(endpoint.secret.slice(10));
    expect(webhooks.secrets.open(rows[0]!.secret_ciphertext, endpoint.id)).toBe(endpoint.secret);

    const session = await startSession(t.app, tenant.agentId);
    expect([200, 201]).toContain((await leave(session.jwt, "ada@example.com")).statusCode);
    await vi.waitFor(async () => expect(settled(await deliveries(endpoint.id))).toBe(true), { timeout: 15_000, interval: 50 });

    const [request] = receiver.at("/signed");
    expect(receiver.at("/signed")).toHaveLength(1);
    const header = String(request!.headers["frontdesk-signature"]);
    const [, timestamp, signature] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
    // The receiver's own computation, as docs/api.md shows it.
    expect(signature).toBe(createHmac("sha256", endpoint.secret).update(`${timestamp}.${request!.body}`).digest("hex"));
    expect(verifyWebhookSignature(endpoint.secret, header, request!.body)).toBe(true);
    expect(verifyWebhookSignature(endpoint.secret, header, request!.body.replace("ada@", "eve@"))).toBe(false);
    expect(verifyWebhookSignature("whsec_another", header, request!.body)).toBe(false);
    const body = JSON.parse(request!.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "lead.created",
      created_at: expect.any(String),
      data: { lead: expect.objectContaining({ email: "ada@example.com", name: "Ada", agent_id: tenant.agentId, conversation_id: session.conversationId }) },
    });
    expect(request!.headers["frontdesk-event-id"]).toBe(body.id);
    expect(request!.headers["content-type"]).toBe("application/json");
    const [attempt] = await deliveries(endpoint.id);
    expect(attempt).toMatchObject({ event_id: body.id, event_type: "lead.created", attempt: 1, status: "succeeded", status_code: 200, error: null, response_body: "ok" });
    expect(attempt!.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("happy: each event type is delivered once with its data; a source settled twice in one sync is delivered once", async () => {
    const own = await seedTenant(t.services);
    const ownAdmin = await createSignedInOperator(t, { workspaceId: own.workspaceId, role: "admin" });
    const endpoint = (
      await runAdminCommand({ ...adminOf(t.services), webhooks: () => createWebhookServices(t.services.config) }, {
        command: "webhook.create",
        workspaceId: own.workspaceId,
        url: receiver.on("/every", (res) => res.end("ok")),
        events: [...ALL_EVENTS],
      })
    ) as CreatedEndpoint;

    const session = await startSession(t.app, own.agentId);
    expect([200, 201]).toContain((await leave(session.jwt, "bo@example.com")).statusCode);
    expect([200, 201]).toContain((await leave(session.jwt, "bo@example.com")).statusCode);
    expect((await widgetPost(session.jwt, "/request-human", { reason: "refund" })).statusCode).toBe(200);
    expect((await widgetPost(session.jwt, "/satisfaction", { rating: "good", comment: "quick" })).statusCode).toBe(200);
    expect((await widgetPost(session.jwt, "/conversation/close")).statusCode).toBe(200);
    const source = (await insertSourceUnlessDuplicate(t.services.db, {
      id: newId("src"),
      workspaceId: own.workspaceId,
      agentId: own.agentId,
      kind: "text",
      config: {},
      targetUrl: null,
      contentHash: "h1",
      schedule: "off",
      nextSyncAt: null,
    }))!;
    // Its sync settles in the page job's transaction. A failed first sync, then one settled by two workers (two
    // page jobs ending together): one event each, one delivery (the second settling's is the same event).
    const settle = (outcome: SourceOutcome, pages: DocumentCounts) => t.services.db.transaction((tx) => settleSource(tx, t.services.events, source.id, outcome, pages));
    await settle({ status: "failed", error: { code: "fetch_failed", message: "down" } }, { found: 1, indexed: 0, failed: 1, pending: 0 });
    await Promise.all([1, 2].map(() => settle({ status: "indexed" }, { found: 1, indexed: 1, failed: 0, pending: 0 })));

    await vi.waitFor(async () => {
      const list = await deliveries(endpoint.id, ownAdmin);
      expect(list).toHaveLength(ALL_EVENTS.length);
      expect(settled(list)).toBe(true);
    }, { timeout: 15_000, interval: 50 });
    const bodies = receiver.at("/every").map((request) => JSON.parse(request.body) as { id: string; type: string; data: Record<string, unknown> });
    expect(bodies.map((body) => body.type).sort()).toEqual([...ALL_EVENTS].sort());
    expect(new Set(bodies.map((body) => body.id)).size).toBe(ALL_EVENTS.length);
    const data = Object.fromEntries(bodies.map((body) => [body.type, body.data]));
    const conversation = { conversation_id: session.conversationId, agent_id: own.agentId };
    expect(data["lead.created"]).toEqual({ lead: expect.objectContaining({ email: "bo@example.com" }) });
    expect(data["lead.updated"]).toEqual({ lead: expect.objectContaining({ email: "bo@example.com" }) });
    expect(data["human.requested"]).toEqual({ ...conversation, reason: "refund", requested_at: expect.any(String), outside_hours: false });
    expect(data["satisfaction.rated"]).toEqual({ ...conversation, rating: "good", comment: "quick", rated_at: expect.any(String) });
    expect(data["conversation.closed"]).toEqual({ ...conversation, assignee: null, closed_at: expect.any(String) });
    expect(data["source.indexed"]).toEqual({ source_id: source.id, agent_id: own.agentId, status: "indexed", pages: { found: 1, indexed: 1, failed: 0 }, error: null });
    expect(data["source.failed"]).toEqual({
      source_id: source.id,
      agent_id: own.agentId,
      status: "failed",
      pages: { found: 1, indexed: 0, failed: 1 },
      error: { code: "fetch_failed", message: "down" },
    });
  });

  it("happy: an event is queued in the transaction of its change: there when the request returns, gone with a rollback", async () => {
    const own = await seedTenant(t.services);
    const endpointId = newId("whk");
    await insertWebhookEndpoint(t.services.db, {
      id: endpointId,
      workspaceId: own.workspaceId,
      // Nothing listens there: its attempts stay queued or fail, which is not what this test looks at.
      url: "http://127.0.0.1:9/never",
      description: "",
      events: ["lead.created", "satisfaction.rated"],
      secretCiphertext: webhooks.secrets.seal("whsec_x", endpointId),
      secretPrefix: "whsec_x",
    });
    const queued = async () =>
      (
        await t.services.db.query<{ event_type: string; attempt: number; jobs: number }>(
          `SELECT d.event_type, d.attempt,
             (SELECT count(*)::int FROM pgboss.job j WHERE j.name = 'deliver-webhook' AND j.data->>'deliveryId' = d.id) AS jobs
           FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.scheduled_at, d.id`,
          [endpointId],
        )
      ).rows;
    const session = await startSession(t.app, own.agentId);
    expect((await leave(session.jwt, "tx@example.com")).statusCode).toBe(201);
    // No waiting: the attempt and its job were committed with the lead.
    expect(await queued()).toEqual([{ event_type: "lead.created", attempt: 1, jobs: 1 }]);

    // A change that does not commit queues nothing: its rating and its event go together.
    const failing = t.services.db.transaction(async (tx) => {
      const rated = (await rateConversation(tx, session.conversationId, "bad", null))!;
      await t.services.events.raise(tx, {
        type: "satisfaction.rated",
        conversation: { workspaceId: own.workspaceId, agentId: own.agentId, conversationId: rated.id, visitorId: session.visitorId },
        rating: "bad",
        comment: null,
        ratedAt: rated.satisfaction!.ratedAt,
      });
      throw new Error("the change fails after its event was queued");
    });
    await expect(failing).rejects.toThrow("the change fails");
    expect(await queued()).toEqual([{ event_type: "lead.created", attempt: 1, jobs: 1 }]);
    const { rows } = await t.services.db.query<{ satisfaction_rating: string | null }>(`SELECT satisfaction_rating FROM conversations WHERE id = $1`, [session.conversationId]);
    expect(rows[0]!.satisfaction_rating).toBeNull();
  });

  it("happy: 500s are retried with back-off, the same event each time, until a success resets the endpoint", async () => {
    const endpoint = await createEndpoint("/flaky", ["lead.created"]);
    receiver.on("/flaky", (res, index) => {
      res.statusCode = index < 2 ? 500 : 200;
      res.end(index < 2 ? "try later" : "ok");
    });
    const session = await startSession(t.app, tenant.agentId);
    expect([200, 201]).toContain((await leave(session.jwt, "flaky@example.com")).statusCode);
    await vi.waitFor(async () => expect((await deliveries(endpoint.id)).find((delivery) => delivery.status === "succeeded")).toBeTruthy(), { timeout: 15_000, interval: 50 });
    const attempts = (await deliveries(endpoint.id)).reverse();
    expect(attempts.map(({ attempt, status, status_code, response_body }) => ({ attempt, status, status_code, response_body }))).toEqual([
      { attempt: 1, status: "failed", status_code: 500, response_body: "try later" },
      { attempt: 2, status: "failed", status_code: 500, response_body: "try later" },
      { attempt: 3, status: "succeeded", status_code: 200, response_body: "ok" },
    ]);
    expect(attempts[0]!.error).toBe("the receiver answered 500");
    expect(new Set(receiver.at("/flaky").map((request) => JSON.parse(request.body).id)).size).toBe(1);
    expect(await endpointOf(endpoint.id)).toMatchObject({ enabled: true, consecutive_failures: 0, failing_since: null, last_success_at: expect.any(String) });
  });

  it("error: an endpoint whose deliveries keep failing is disabled with the reason, gets nothing more, and can be enabled again", async () => {
    const endpoint = await createEndpoint("/down", ["lead.created"]);
    receiver.on("/down", (res) => {
      res.statusCode = 503;
      res.end("down");
    });
    const session = await startSession(t.app, tenant.agentId);
    expect([200, 201]).toContain((await leave(session.jwt, "down1@example.com")).statusCode);
    await vi.waitFor(async () => expect((await endpointOf(endpoint.id)).consecutive_failures).toBe(1), { timeout: 15_000, interval: 50 });
    expect((await endpointOf(endpoint.id)).enabled).toBe(true);
    expect([200, 201]).toContain((await leave(session.jwt, "down2@example.com")).statusCode);
    await vi.waitFor(async () => expect((await endpointOf(endpoint.id)).enabled).toBe(false), { timeout: 15_000, interval: 50 });
    const disabled = await endpointOf(endpoint.id);
    expect(disabled.disabled_reason).toBe("2 consecutive deliveries failed every attempt (the last: the receiver answered 503)");
    expect(disabled.disabled_at).not.toBeNull();
    expect((await deliveries(endpoint.id)).filter((delivery) => delivery.status === "failed")).toHaveLength(6);

    // Disabled: a new lead queues nothing for it.
    const before = receiver.at("/down").length;
    expect([200, 201]).toContain((await leave(session.jwt, "down3@example.com")).statusCode);
    await createEndpoint("/sentinel", ["lead.updated"]);
    expect([200, 201]).toContain((await leave(session.jwt, "down3@example.com")).statusCode);
    await vi.waitFor(() => expect(receiver.at("/sentinel")).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(receiver.at("/down")).toHaveLength(before);
    expect(await deliveries(endpoint.id)).toHaveLength(6);

    const enabled = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/webhooks/${endpoint.id}`, headers: admin.headers, payload: { enabled: true } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().data).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null });
  });

  it("error: failing for longer than the period disables an endpoint at its next failed delivery", async () => {
    const endpoint = await createEndpoint("/slow-death", ["lead.created"]);
    receiver.on("/slow-death", (res) => {
      res.statusCode = 500;
      res.end();
    });
    await t.services.db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '4 days' WHERE id = $1`, [endpoint.id]);
    const session = await startSession(t.app, tenant.agentId);
    expect([200, 201]).toContain((await leave(session.jwt, "slow@example.com")).statusCode);
    await vi.waitFor(async () => expect((await endpointOf(endpoint.id)).enabled).toBe(false), { timeout: 15_000, interval: 50 });
    expect((await endpointOf(endpoint.id)).disabled_reason).toMatch(/^deliveries have failed since .* without a success \(the last: the receiver answered 500\)$/);
  });

  it("security: a delivery never holds up the visitor: their POST returns while the receiver hangs", async () => {
    const endpoint = await createEndpoint("/hang", ["lead.created"]);
    receiver.on("/hang", (res, index) => (index === 0 ? receiver.hold(res) : res.end("ok")));
    const first = await startSession(t.app, tenant.agentId);
    expect([200, 201]).toContain((await leave(first.jwt, "hang1@example.com")).statusCode);
    await vi.waitFor(() => expect(receiver.at("/hang")).toHaveLength(1), { timeout: 15_000, interval: 20 });
    // The receiver holds the delivery open; another visitor's lead is answered meanwhile.
    const second = await startSession(t.app, tenant.agentId);
    const response = await leave(second.jwt, "hang2@example.com");
    expect(response.statusCode).toBe(201);
    expect((await deliveries(endpoint.id)).find((delivery) => delivery.attempt === 1 && delivery.status === "pending")).toBeTruthy();
    receiver.release();
    await vi.waitFor(async () => {
      const list = await deliveries(endpoint.id);
      expect(list.filter((delivery) => delivery.status === "succeeded")).toHaveLength(2);
    }, { timeout: 15_000, interval: 50 });
  });

  it("security: private addresses are refused when an endpoint is saved (422) and when it is delivered to, redirects are not followed", async () => {
    for (const url of ["http://10.0.0.1/hook", "http://169.254.169.254/latest", "http://[::1]:8080/", "ftp://example.com/", "https://user:pw@example.com/", "not a url"]) {
      const response = await create(admin, { url, events: ["lead.created"] });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(response.json().error.fields.url, url).toHaveLength(1);
    }
    expect((await create(admin, { url: "http://10.0.0.1/hook", events: ["lead.created"] })).json().error.fields.url[0]).toBe("10.0.0.1 is not allowed (private)");
    const patched = await t.app.inject({
      method: "PATCH",
      url: `${CONSOLE}/webhooks/${(await createEndpoint("/move", ["lead.created"])).id}`,
      headers: admin.headers,
      payload: { url: "http://192.168.1.1/" },
    });
    expect(patched.statusCode).toBe(422);

    // Rows saved before the policy (or DNS) changed: the delivery checks again.
    const stored = async (url: string) => {
      const id = newId("whk");
      await insertWebhookEndpoint(t.services.db, { id, workspaceId: tenant.workspaceId, url, description: "", events: ["lead.created"], secretCiphertext: webhooks.secrets.seal("whsec_x", id), secretPrefix: "whsec_x" });
      return id;
    };
    const sendTest = async (id: string) => {
      const response = await t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks/${id}/test`, headers: admin.headers });
      expect(response.statusCode, response.body).toBe(202);
    };
    const literal = await stored("http://10.0.0.1:9/hook");
    const rebound = await stored(`http://rebound.test:${new URL(receiver.url).port}/rebound`);
    const redirecting = await createEndpoint("/redirect", ["lead.created"]);
    receiver.on("/redirect", (res) => {
      res.statusCode = 302;
      res.setHeader("location", "http://10.0.0.1/");
      res.end();
    });
    for (const id of [literal, rebound, redirecting.id]) await sendTest(id);
    const outcome = async (id: string) => {
      let found: WebhookDelivery | undefined;
      await vi.waitFor(async () => {
        found = (await deliveries(id))[0];
        expect(found?.status).toBe("failed");
      }, { timeout: 15_000, interval: 50 });
      return found!;
    };
    expect(await outcome(literal)).toMatchObject({ event_type: "webhook.test", status_code: null, error: "refused: 10.0.0.1:9 is not allowed (private)" });
    expect(await outcome(rebound)).toMatchObject({ status_code: null, error: "refused: rebound.test resolves to 10.0.0.7 (private)" });
    expect(receiver.at("/rebound")).toHaveLength(0);
    expect(await outcome(redirecting.id)).toMatchObject({ status_code: 302, error: "redirect (302) not followed: webhook URLs must answer directly" });
    expect(receiver.at("/redirect")).toHaveLength(1);
    // A test event's failure does not count against the endpoint.
    expect((await endpointOf(redirecting.id)).consecutive_failures).toBe(0);
  });

  it("security: only admins manage webhooks (403), and another workspace's endpoint is not found (404)", async () => {
    const endpoint = await createEndpoint("/mine", ["lead.created"]);
    for (const [method, url] of [
      ["GET", "/webhooks"],
      ["POST", "/webhooks"],
      ["PATCH", `/webhooks/${endpoint.id}`],
      ["DELETE", `/webhooks/${endpoint.id}`],
      ["GET", `/webhooks/${endpoint.id}/deliveries`],
      ["POST", `/webhooks/${endpoint.id}/test`],
    ] as const) {
      const asAgent = await t.app.inject({ method, url: `${CONSOLE}${url}`, headers: agentOperator.headers, payload: method === "GET" || method === "DELETE" ? undefined : { url: "x" } });
      expect(asAgent.statusCode, `${method} ${url}`).toBe(403);
      expect(asAgent.json().error.code).toBe("forbidden");
      if (url === "/webhooks") continue;
      const asOutsider = await t.app.inject({ method, url: `${CONSOLE}${url}`, headers: outsider.headers, payload: method === "PATCH" ? { enabled: false } : undefined });
      expect(asOutsider.statusCode, `${method} ${url}`).toBe(404);
      expect(asOutsider.json().error.code).toBe("webhook_not_found");
    }
    const theirs = await t.app.inject({ method: "GET", url: `${CONSOLE}/webhooks`, headers: outsider.headers });
    expect(theirs.json().data).toEqual([]);
    expect((await endpointOf(endpoint.id)).enabled).toBe(true);
  });

  it("happy: the CLI creates (printing the secret once), lists and deletes endpoints; delete takes the log with it", async () => {
    const workspace = await seedTenant(t.services);
    const context = { ...adminOf(t.services), webhooks: () => createWebhookServices(t.services.config) };
    const url = receiver.on("/cli", (res) => res.end("ok"));
    const command = parseAdminArguments(["webhook", "create", "--workspace", workspace.workspaceId, "--url", url, "--event", "lead.created", "--event", "source.failed", "--description", "CRM"]);
    const created = (await runAdminCommand(context, command)) as CreatedEndpoint;
    expect(created).toMatchObject({ url, events: ["lead.created", "source.failed"], description: "CRM", enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const listed = (await runAdminCommand(context, parseAdminArguments(["webhook", "list", "--workspace", workspace.workspaceId]))) as WebhookEndpoint[];
    expect(listed.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(10));
    await expect(runAdminCommand(context, { command: "webhook.create", workspaceId: workspace.workspaceId, url: "http://10.1.1.1/", events: ["lead.created"] })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(runAdminCommand(context, { command: "webhook.create", workspaceId: workspace.workspaceId, url, events: ["lead.deleted" as "lead.created"] })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(runAdminCommand(context, parseAdminArguments(["webhook", "delete", created.id, "--workspace", tenant.workspaceId]))).rejects.toMatchObject({ code: "webhook_not_found" });
    const deleted = await runAdminCommand(context, parseAdminArguments(["webhook", "delete", created.id, "--workspace", workspace.workspaceId]));
    expect(deleted).toMatchObject({ id: created.id, deleted: true });
    expect(await runAdminCommand(context, { command: "webhook.list", workspaceId: workspace.workspaceId })).toEqual([]);
    expect(() => parseAdminArguments(["webhook", "create", "--workspace", "w", "--url", url])).toThrow("--event is required");
  });

  it("happy: the console's delete answers 204 and the endpoint's log goes with it", async () => {
    const endpoint = await createEndpoint("/gone", ["lead.created"]);
    const sent = await t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks/${endpoint.id}/test`, headers: admin.headers });
    expect(sent.statusCode).toBe(202);
    await vi.waitFor(async () => expect(settled(await deliveries(endpoint.id))).toBe(true), { timeout: 15_000, interval: 50 });
    expect(JSON.parse(receiver.at("/gone")[0]!.body)).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } });
    const removed = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/webhooks/${endpoint.id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    const { rows } = await t.services.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
    expect(rows[0]!.count).toBe(0);
    expect((await t.app.inject({ method: "DELETE", url: `${CONSOLE}/webhooks/${endpoint.id}`, headers: admin.headers })).statusCode).toBe(404);
  });
});
