import { pino } from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { PushDevice } from "@frontdesk/contracts";
import { registerPushWorkers } from "../../src/push/register-push-workers.js";
import { CONSOLE, type ConsoleSession, createSignedInOperator, seedConsoleCast } from "../support/console-session.js";
import { bearer, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, TEST_VAPID_KEYS, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { type BrowserSubscription, LoopbackPushService } from "./loopback-push-service.js";

describeEachStore("Web Push alerts on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;
  let leaver: ConsoleSession;
  let workers: { close(): Promise<void> };
  const pushService = new LoopbackPushService();
  let leaverDevice: BrowserSubscription;

  const subscribe = (session: ConsoleSession, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }, label = "Test browser") =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/push/devices`, headers: session.headers, payload: { endpoint: subscription.endpoint, keys: subscription.keys, device_label: label } });
  const devices = async (session: ConsoleSession): Promise<PushDevice[]> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/push/devices`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const requestHuman = async (reason?: string) => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/widget/request-human",
      headers: bearer(session.jwt),
      payload: reason === undefined ? {} : { reason },
    });
    expect(response.statusCode, response.body).toBe(200);
    return session.conversationId;
  };
  const sends = async (outcome: string): Promise<number> => {
    const metric = t.services.metrics.getSingleMetric("frontdesk_push_sends_total");
    const values = metric ? (await metric.get()).values : [];
    return values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  };

  beforeAll(async () => {
    await pushService.start();
    t = await createTestApp(kind, {
      // The loopback push service is reached over http: only with the explicit setting.
      FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS: "true",
      FRONTDESK_PUSH_RETRY_BASE_MS: "1",
      FRONTDESK_PUSH_ATTEMPTS: "3",
      FRONTDESK_VAPID_SUBJECT: "mailto:ops@frontdesk.test",
      FRONTDESK_PUBLIC_URL: "https://desk.example.com",
    });
    ({ tenant, admin, agentOperator, outsider } = await seedConsoleCast(t));
    // Queued, then removed before any worker runs: the alert must not reach the removed operator's device.
    leaver = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    leaverDevice = pushService.subscribe("/leaver");
    expect((await subscribe(leaver, leaverDevice)).statusCode).toBe(201);
    await requestHuman("queued before the removal");
    const removed = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/operators/${leaver.operator.id}`, headers: admin.headers });
    expect(removed.statusCode, removed.body).toBe(200);
    workers = await registerPushWorkers(t.services, pino({ level: process.env.PUSH_TEST_LOG ?? "silent" }));
  });
  afterAll(async () => {
    await workers.close();
    await t.close();
    await pushService.close();
  });

  it("security: an operator removed between queueing and sending gets nothing", async () => {
    await vi.waitFor(async () => expect(await sends("skipped")).toBeGreaterThanOrEqual(1), { timeout: 15_000, interval: 50 });
    expect(pushService.at("/leaver")).toEqual([]);
  });

  it("happy: a human request reaches a subscribed device, VAPID-signed and encrypted, with the reason as text", async () => {
    const browser = pushService.subscribe("/admin-laptop");
    const created = await subscribe(admin, browser, "Firefox on Linux");
    expect(created.statusCode, created.body).toBe(201);
    const device: PushDevice = created.json().data;
    expect(device).toMatchObject({ device_label: "Firefox on Linux", endpoint_origin: pushService.origin, last_success_at: null });
    expect(created.body).not.toContain(browser.keys.auth);

    const reason = "<b>Refund</b> for order #12 & \"more\"";
    const conversationId = await requestHuman(reason);
    await vi.waitFor(() => expect(pushService.at("/admin-laptop")).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [push] = pushService.at("/admin-laptop");
    expect(pushService.rejected).toEqual([]);
    expect(push!.claims).toMatchObject({ aud: pushService.origin, sub: "mailto:ops@frontdesk.test" });
    expect(push!.vapidPublicKey).toBe(TEST_VAPID_KEYS.publicKey);
    expect(push!.headers).toMatchObject({ ttl: "3600", urgency: "high" });
    expect(push!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(push!.alert).toEqual({
      kind: "human_requested",
      title: "A visitor is waiting for a person",
      body: reason,
      url: `https://desk.example.com/console/inbox/${conversationId}`,
      conversation_id: conversationId,
      tag: `conversation-${conversationId}`,
    });
    await vi.waitFor(async () => expect((await devices(admin))[0]?.last_success_at).not.toBeNull(), { timeout: 5000, interval: 50 });

    // Without a reason, a plain sentence; another conversation has another topic.
    const second = await requestHuman();
    await vi.waitFor(() => expect(pushService.at("/admin-laptop")).toHaveLength(2), { timeout: 15_000, interval: 50 });
    const other = pushService.at("/admin-laptop")[1]!;
    expect(other.alert).toMatchObject({ body: "A visitor asked for a person", conversation_id: second });
    expect(other.headers.topic).not.toBe(push!.headers.topic);
    await t.app.inject({ method: "DELETE", url: `${CONSOLE}/push/devices/${device.id}`, headers: admin.headers });
  });

  it("happy: 500 then 201 is retried; 410 deletes the subscription", async () => {
    const flaky = pushService.subscribe("/flaky", [500, 201]);
    const gone = pushService.subscribe("/gone", [410]);
    expect((await subscribe(admin, flaky, "Flaky")).statusCode).toBe(201);
    expect((await subscribe(agentOperator, gone, "Gone")).statusCode).toBe(201);
    await requestHuman("retry me");
    await vi.waitFor(() => expect(pushService.at("/flaky")).toHaveLength(2), { timeout: 15_000, interval: 50 });
    expect(pushService.at("/flaky")[1]!.alert).toMatchObject({ body: "retry me" });
    await vi.waitFor(async () => expect(await devices(agentOperator)).toEqual([]), { timeout: 15_000, interval: 50 });
    expect(pushService.at("/gone")).toHaveLength(1);
    await vi.waitFor(async () => expect((await devices(admin)).find((device) => device.device_label === "Flaky")?.last_success_at).not.toBeNull(), {
      timeout: 5000,
      interval: 50,
    });
    expect(await sends("retry")).toBeGreaterThanOrEqual(1);
    expect(await sends("gone")).toBeGreaterThanOrEqual(1);
    await t.app.inject({ method: "DELETE", url: `${CONSOLE}/push/devices/${(await devices(admin))[0]!.id}`, headers: admin.headers });
  });

  it("happy: the same browser subscribing again replaces its keys; list, delete", async () => {
    const browser = pushService.subscribe("/again");
    const first = await subscribe(agentOperator, browser, "Old label");
    expect(first.statusCode).toBe(201);
    const renewed = pushService.subscribe("/again");
    const second = await subscribe(agentOperator, renewed, "New label");
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.id).toBe(first.json().data.id);
    expect((await devices(agentOperator)).map((device) => device.device_label)).toEqual(["New label"]);
    const removed = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/push/devices/${first.json().data.id}`, headers: agentOperator.headers });
    expect(removed.statusCode).toBe(204);
    expect(await devices(agentOperator)).toEqual([]);
  });

  it("security: an operator sees and deletes only their own devices; keys are never returned", async () => {
    const browser = pushService.subscribe("/mine");
    const created = (await subscribe(agentOperator, browser)).json().data as PushDevice;
    expect(await devices(outsider)).toEqual([]);
    expect(await devices(admin)).toEqual([]);
    for (const session of [admin, outsider]) {
      const response = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/push/devices/${created.id}`, headers: session.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: "push_subscription_not_found", message: expect.any(String) } });
    }
    const listed = await t.app.inject({ method: "GET", url: `${CONSOLE}/push/devices`, headers: agentOperator.headers });
    expect(listed.body).not.toContain(browser.keys.auth);
    expect(listed.body).not.toContain(browser.keys.p256dh);
    expect(listed.body).not.toContain("/mine");
    const anonymous = await t.app.inject({ method: "GET", url: `${CONSOLE}/push/devices` });
    expect(anonymous.statusCode).toBe(401);
    const key = await t.app.inject({ method: "GET", url: `${CONSOLE}/push/key`, headers: agentOperator.headers });
    expect(key.json()).toEqual({ data: { public_key: TEST_VAPID_KEYS.publicKey } });
    await t.app.inject({ method: "DELETE", url: `${CONSOLE}/push/devices/${created.id}`, headers: agentOperator.headers });
  });

  it("security: signing out everywhere and a new password stop the operator's devices", async () => {
    const operator = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    expect((await subscribe(operator, pushService.subscribe("/signed-out"))).statusCode).toBe(201);
    const signedOut = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/operators/${operator.operator.id}/sessions`, headers: admin.headers });
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    expect(await devices(await createSessionFor(operator))).toEqual([]);

    const again = await createSessionFor(operator);
    expect((await subscribe(again, pushService.subscribe("/new-password"))).statusCode).toBe(201);
    const { setOperatorPassword } = await import("../../src/console/set-password.js");
    expect(await setOperatorPassword(t.services.db, operator.operator.id, "a long and unusual passphrase 42", new Date())).not.toBeNull();
    expect(await devices(await createSessionFor(operator))).toEqual([]);
  });

  it("error: bad subscriptions are 422 with the fields", async () => {
    const good = pushService.subscribe("/bad");
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, keys: { ...good.keys, p256dh: "short" } }, "keys.p256dh"],
      [{ ...good, keys: { ...good.keys, auth: Buffer.alloc(17).toString("base64url") } }, "keys.auth"],
      [{ endpoint: good.endpoint }, "keys"],
      [{ ...good, endpoint: "ftp://push.example.com/x" }, "endpoint"],
      [{ ...good, endpoint: "not a url" }, "endpoint"],
      [{ ...good, endpoint: "https://user:pw@push.example.com/x" }, "endpoint"],
    ];
    for (const [payload, field] of cases) {
      const response = await t.app.inject({ method: "POST", url: `${CONSOLE}/push/devices`, headers: admin.headers, payload: { endpoint: payload.endpoint, keys: payload.keys } });
      expect(response.statusCode, `${field}: ${response.body}`).toBe(422);
      const body = response.json();
      expect(body.error.code).toBe("validation_failed");
      expect(Object.keys(body.error.fields), response.body).toContain(field);
    }
  });

  /** A new console session of an existing operator. */
  async function createSessionFor(session: ConsoleSession): Promise<ConsoleSession> {
    const { startOperatorSession } = await import("../../src/console/start-operator-session.js");
    const { sessionCookie } = await import("../support/console-session.js");
    const started = await startOperatorSession(t.services, session.operator.id);
    return { ...session, secret: started.secret, headers: { ...session.headers, cookie: sessionCookie(started.secret) } };
  }
});

describeEachStore("Web Push subscriptions behind the address guard on %s", (kind) => {
  let t: TestApp;
  let admin: ConsoleSession;
  const pushService = new LoopbackPushService();

  beforeAll(async () => {
    await pushService.start();
    t = await createTestApp(kind);
    ({ admin } = await seedConsoleCast(t));
  });
  afterAll(async () => {
    await t.close();
    await pushService.close();
  });

  it("security: http, loopback and private endpoints are refused unless the deployment allows them", async () => {
    const browser = pushService.subscribe("/refused");
    for (const endpoint of [browser.endpoint, "https://127.0.0.1/push", "https://[::1]/push", "https://10.0.0.8/push", "https://169.254.169.254/latest", "https://localhost/push"]) {
      const response = await t.app.inject({ method: "POST", url: `${CONSOLE}/push/devices`, headers: admin.headers, payload: { endpoint, keys: browser.keys } });
      expect(response.statusCode, `${endpoint}: ${response.body}`).toBe(422);
      expect(response.json().error.fields.endpoint).toHaveLength(1);
    }
    expect(pushService.received).toEqual([]);
  });
});
