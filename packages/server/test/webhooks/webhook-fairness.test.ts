import type { WebhookEndpoint } from "@frontdesk/contracts";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { queueWebhookEvent } from "../../src/webhooks/queue-webhook-event.js";
import { CONSOLE, type ConsoleSession } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, startSession, type Tenant } from "../support/seed.js";
import type { TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import type { LoopbackReceiver } from "./loopback-receiver.js";
import { startWebhookWorld, type WebhookWorld } from "./webhook-world.js";

/**
 * Issue 28, finding 5: one workspace's slow receiver costs that workspace, not others. Attempts
 * under way are capped per workspace across processes (FRONTDESK_WEBHOOK_WORKSPACE_CONCURRENCY,
 * 2 here, of 4 workers), an endpoint's circuit opens after failures in a row, and test sends are
 * rate-limited per workspace.
 */
describeEachStore("webhook fairness between workspaces on %s", (kind) => {
  let world: WebhookWorld;
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let outsider: ConsoleSession;
  let receiver: LoopbackReceiver;

  beforeAll(async () => {
    world = await startWebhookWorld(kind, {
      FRONTDESK_WEBHOOK_CONCURRENCY: "4",
      FRONTDESK_WEBHOOK_WORKSPACE_CONCURRENCY: "2",
      FRONTDESK_WEBHOOK_TIMEOUT_SECONDS: "30",
      FRONTDESK_WEBHOOK_ATTEMPTS: "10",
      FRONTDESK_WEBHOOK_RETRY_BASE_MS: "1",
      FRONTDESK_WEBHOOK_CIRCUIT_FAILURES: "3",
      FRONTDESK_WEBHOOK_CIRCUIT_COOLDOWN_SECONDS: "2",
      FRONTDESK_WEBHOOK_DISABLE_AFTER_FAILURES: "100",
    });
    ({ t, receiver } = world);
    ({ tenant, other, admin, outsider } = world.cast);
  }, 120_000);
  afterAll(() => world.close());

  const createEndpoint = async (session: ConsoleSession, url: string, events: string[]): Promise<string> => {
    const response = await t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks`, headers: session.headers, payload: { url, events } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id;
  };
  const endpointOf = async (endpointId: string): Promise<WebhookEndpoint> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/webhooks`, headers: admin.headers });
    return (response.json().data as WebhookEndpoint[]).find((endpoint) => endpoint.id === endpointId)!;
  };
  const statuses = async (endpointId: string) =>
    (await t.services.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status`, [endpointId])).rows;

  it("error: an endpoint failing in a row opens its circuit: attempts wait without being sent, then one trial, and a success closes it", async () => {
    const path = "/circuit";
    let healthy = false;
    const url = receiver.on(path, (res) => {
      res.statusCode = healthy ? 200 : 500;
      res.end(healthy ? "ok" : "down");
    });
    const endpointId = await createEndpoint(admin, url, ["lead.created"]);
    await t.services.db.transaction((tx) =>
      queueWebhookEvent(tx, t.services.jobs, { workspaceId: tenant.workspaceId, type: "lead.created", at: new Date().toISOString(), data: { lead: null } }),
    );
    await vi.waitFor(async () => expect((await endpointOf(endpointId)).circuit_open_until).not.toBeNull(), { timeout: 15_000, interval: 20 });
    const opened = await endpointOf(endpointId);
    expect(receiver.at(path)).toHaveLength(3);
    // While open, the next attempt waits: scheduled at the circuit's end, not sent.
    await vi.waitFor(async () => expect(await statuses(endpointId)).toContainEqual({ status: "pending", n: 1 }), { timeout: 5_000, interval: 20 });
    expect(receiver.at(path)).toHaveLength(3);
    expect(Date.parse(opened.circuit_open_until!)).toBeGreaterThan(Date.now());

    healthy = true;
    await vi.waitFor(async () => expect((await endpointOf(endpointId)).last_success_at).not.toBeNull(), { timeout: 15_000, interval: 50 });
    expect(receiver.at(path)).toHaveLength(4);
    expect(await endpointOf(endpointId)).toMatchObject({ circuit_open_until: null, consecutive_failures: 0, enabled: true });
  });

  it("security: workspace B's delivery arrives in its normal time while workspace A's 40 events hang on a receiver, and A's are postponed, not lost", async () => {
    const hanging = "/a-hangs";
    const aEndpoint = await createEndpoint(admin, receiver.on(hanging, (res) => receiver.hold(res)), ["lead.created"]);
    const bPath = "/b-receives";
    await createEndpoint(outsider, receiver.on(bPath, (res) => res.end("ok")), ["lead.created"]);
    await t.services.db.transaction(async (tx) => {
      for (let index = 0; index < 40; index += 1) {
        await queueWebhookEvent(tx, t.services.jobs, { workspaceId: tenant.workspaceId, type: "lead.created", at: new Date().toISOString(), data: { lead: null, index } });
      }
    });
    await vi.waitFor(() => expect(receiver.at(hanging)).toHaveLength(2), { timeout: 15_000, interval: 20 });

    const session = await startSession(t.app, other.agentId);
    const lead = await t.app.inject({
      method: "POST",
      url: "/api/v1/widget/leads",
      headers: { ...bearer(session.jwt), origin: SITE_ORIGIN },
      payload: { email: "b@example.com" },
    });
    expect([200, 201]).toContain(lead.statusCode);
    // Before A's first attempt could time out (30 s): B does not wait for A's hanging receiver.
    await vi.waitFor(() => expect(receiver.at(bPath)).toHaveLength(1), { timeout: 15_000, interval: 20 });
    expect(JSON.parse(receiver.at(bPath)[0]!.body).data.lead.email).toBe("b@example.com");
    // A holds at most its two places; its other attempts wait, all 40 kept.
    expect(receiver.at(hanging)).toHaveLength(2);
    const aStatuses = await statuses(aEndpoint);
    expect(aStatuses.reduce((sum, row) => sum + row.n, 0)).toBe(40);
    expect(aStatuses.filter((row) => row.status !== "pending" && row.status !== "sending")).toEqual([]);
    receiver.release();
  });

  it("error: test sends are limited per workspace: the eleventh in a minute is 429 rate_limited with Retry-After, another workspace unaffected", async () => {
    const endpointId = await createEndpoint(admin, receiver.on("/tests", (res) => res.end("ok")), ["lead.created"]);
    const send = (session: ConsoleSession, id: string) => t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks/${id}/test`, headers: session.headers });
    for (let index = 0; index < 10; index += 1) expect((await send(admin, endpointId)).statusCode).toBe(202);
    const refused = await send(admin, endpointId);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    const otherEndpoint = await createEndpoint(outsider, receiver.on("/tests-b", (res) => res.end("ok")), ["lead.created"]);
    expect((await send(outsider, otherEndpoint)).statusCode).toBe(202);
  });
});
