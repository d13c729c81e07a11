import { createHash, createHmac } from "node:crypto";
import PusherServer from "pusher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "@frontdesk/contracts";
import { createListeningTestApp, rawClient, socketIdOf, type ListeningTestApp, type RawClient } from "../support/realtime-clients.js";
import { TEST_REALTIME_SECRET } from "../support/test-app.js";

/** Signs a request the way Pusher's libraries do, with every part overridable to forge one. */
function signed(options: { method: string; path: string; body?: string; params?: Record<string, string>; secret?: string; timestamp?: number; bodyMd5?: string; key?: string }) {
  const params: Record<string, string> = {
    auth_key: options.key ?? "frontdesk",
    auth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: "1.0",
    ...(options.body === undefined ? {} : { body_md5: options.bodyMd5 ?? createHash("md5").update(options.body).digest("hex") }),
    ...options.params,
  };
  const query = Object.keys(params).sort().map((key) => `${key}=${params[key]}`).join("&");
  const signature = createHmac("sha256", options.secret ?? TEST_REALTIME_SECRET).update(`${options.method}\n${options.path}\n${query}`).digest("hex");
  return `${options.path}?${query}&auth_signature=${signature}`;
}

describe("the Pusher HTTP API on the service's own port", () => {
  let t: ListeningTestApp;
  let listener: RawClient;
  const url = (pathAndQuery: string) => `http://127.0.0.1:${t.port}${pathAndQuery}`;
  const post = (path: string, body: unknown, forge: Parameters<typeof signed>[0] extends infer O ? Partial<O> : never = {}) => {
    const text = JSON.stringify(body);
    return fetch(url(signed({ method: "POST", path, body: text, ...forge })), { method: "POST", body: text, headers: { "content-type": "application/json" } });
  };

  beforeAll(async () => {
    t = await createListeningTestApp("pglite");
    listener = rawClient(`ws://127.0.0.1:${t.port}/app/frontdesk?protocol=7`, { answerPings: true });
    const socketId = await socketIdOf(listener);
    for (const channel of ["alerts", "presence-team"]) {
      const presence = { user_id: "op_1", user_info: { name: "Ada" } };
      const data = channel === "presence-team" ? { channel, ...t.pusherServer.authorizeChannel(socketId, channel, presence) } : { channel };
      listener.send({ event: "pusher:subscribe", data });
      await listener.next("pusher_internal:subscription_succeeded");
      listener.frames.length = 0;
    }
  });
  afterAll(async () => {
    listener.socket.close();
    await t.close();
  });

  it("happy: batch_events delivers every event, in order", async () => {
    const response = await t.pusherServer.triggerBatch([
      { channel: "alerts", name: "first", data: "1" },
      { channel: "alerts", name: "second", data: JSON.stringify({ n: 2 }) },
    ]);
    expect(response.status).toBe(200);
    await listener.next("second");
    expect(listener.frames.map((frame) => [frame.event, frame.channel, frame.data])).toEqual([
      ["first", "alerts", "1"],
      ["second", "alerts", '{"n":2}'],
    ]);
  });

  it("happy: GET channels lists the occupied ones (with a prefix filter and user_count), one channel, and a presence channel's users", async () => {
    const all = await (await t.pusherServer.get({ path: "/channels" })).json();
    expect(all).toEqual({ channels: { alerts: {}, "presence-team": {} } });
    const presence = await (await t.pusherServer.get({ path: "/channels", params: { filter_by_prefix: "presence-", info: "user_count" } })).json();
    expect(presence).toEqual({ channels: { "presence-team": { user_count: 1 } } });
    const one = await (await t.pusherServer.get({ path: "/channels/presence-team", params: { info: "subscription_count,user_count" } })).json();
    expect(one).toEqual({ occupied: true, subscription_count: 1, user_count: 1 });
    expect(await (await t.pusherServer.get({ path: "/channels/empty-room" })).json()).toEqual({ occupied: false });
    expect(await (await t.pusherServer.get({ path: "/channels/presence-team/users" })).json()).toEqual({ users: [{ id: "op_1" }] });
  });

  it("security: a request signed with another secret is 401 invalid_signature, and nothing is delivered", async () => {
    const forger = new PusherServer({ appId: "frontdesk", key: "frontdesk", secret: "not-the-secret", host: "127.0.0.1", port: String(t.port) });
    await expect(forger.trigger("alerts", "forged", "x")).rejects.toMatchObject({ status: 401 });
    const response = await post("/apps/frontdesk/events", { name: "forged", channel: "alerts", data: "x" }, { secret: "not-the-secret" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "invalid_signature", message: "auth_signature does not match the request." } });
    expect(listener.frames.some((frame) => frame.event === "forged")).toBe(false);
  });

  it("security: a timestamp more than 600 s away is refused, either way; 590 s is accepted", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 601, now + 601]) {
      const response = await post("/apps/frontdesk/events", { name: "late", channel: "alerts", data: "x" }, { timestamp });
      expect(response.status).toBe(401);
      expect(((await response.json()) as ErrorBody).error.message).toMatch(/auth_timestamp/);
    }
    expect((await post("/apps/frontdesk/events", { name: "recent", channel: "alerts", data: "x" }, { timestamp: now - 590 })).status).toBe(200);
  });

  it("security: a body_md5 that is not the body's MD5 is refused, though the signature covers it", async () => {
    const response = await post("/apps/frontdesk/events", { name: "tampered", channel: "alerts", data: "x" }, { bodyMd5: createHash("md5").update("another body").digest("hex") });
    expect(response.status).toBe(401);
    expect(((await response.json()) as ErrorBody).error).toEqual({ code: "invalid_signature", message: "body_md5 is not the MD5 of the body." });
  });

  it("security: a signed request replayed with another body under another content type is refused (415), so body_md5 cannot be skipped", async () => {
    const original = JSON.stringify({ name: "genuine", channel: "alerts", data: "x" });
    const path = signed({ method: "POST", path: "/apps/frontdesk/events", body: original });
    const tampered = JSON.stringify({ name: "tampered", channel: "alerts", data: "x" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/vnd.api+json"]) {
      const response = await fetch(url(path), { method: "POST", body: tampered, headers: { "content-type": type } });
      expect(response.status).toBe(415);
      expect(((await response.json()) as ErrorBody).error.code).toBe("unsupported_media_type");
    }
    expect((await fetch(url(path), { method: "POST", body: tampered, headers: { "content-type": "application/json" } })).status).toBe(401);
    expect(listener.frames.some((frame) => frame.event === "tampered")).toBe(false);
  });

  it("security: missing auth parameters, another key, and repeated parameters are refused", async () => {
    const bare = await fetch(url("/apps/frontdesk/channels"));
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as ErrorBody).error.code).toBe("invalid_signature");
    expect((await fetch(url(signed({ method: "GET", path: "/apps/frontdesk/channels", key: "other-key" })))).status).toBe(401);
    const repeated = `${signed({ method: "GET", path: "/apps/frontdesk/channels" })}&auth_key=frontdesk`;
    expect((await fetch(url(repeated))).status).toBe(401);
  });

  it("error: an unknown app id is 404 not_found", async () => {
    const response = await fetch(url(signed({ method: "GET", path: "/apps/other-app/channels" })));
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).error.code).toBe("not_found");
  });

  it("error: the limits — 101 channels, 11 events in a batch, a bad channel name (422), data over 100 KB (413), users of a non-presence channel (400)", async () => {
    const channels = Array.from({ length: 101 }, (_, index) => `c${index}`);
    const tooMany = await post("/apps/frontdesk/events", { name: "e", channels, data: "x" });
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as ErrorBody).error.code).toBe("validation_failed");
    const batch = Array.from({ length: 11 }, () => ({ channel: "alerts", name: "e", data: "x" }));
    expect((await post("/apps/frontdesk/batch_events", { batch })).status).toBe(422);
    expect((await post("/apps/frontdesk/events", { name: "e", channel: "x".repeat(201), data: "x" })).status).toBe(422);
    expect((await post("/apps/frontdesk/events", { name: "e", channel: "bad name", data: "x" })).status).toBe(422);
    const big = await post("/apps/frontdesk/events", { name: "e", channel: "alerts", data: "z".repeat(102_401) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as ErrorBody).error.code).toBe("payload_too_large");
    expect((await post("/apps/frontdesk/events", { name: "e", channel: "alerts", data: "z".repeat(102_400) })).status).toBe(200);
    const users = await fetch(url(signed({ method: "GET", path: "/apps/frontdesk/channels/alerts/users" })));
    expect(users.status).toBe(400);
    expect(listener.frames.filter((frame) => frame.event === "e")).toHaveLength(1);
  });
});
