import { WebSocket } from "ws";
import { expect, it } from "vitest";
import { connected, createListeningTestApp, rawClient, signedPusherClient, socketIdOf, until } from "../support/realtime-clients.js";

it("happy: closing the service closes every socket with 4200 (reconnect at once), and pusher-js starts reconnecting", async () => {
  const t = await createListeningTestApp("pglite");
  const raw = rawClient(`ws://127.0.0.1:${t.port}/app/frontdesk?protocol=7`);
  await socketIdOf(raw);
  const pusher = signedPusherClient({ app_key: "frontdesk", host: "127.0.0.1", port: t.port, scheme: "ws" }, t.pusherServer);
  await connected(pusher);
  const states: string[] = [];
  pusher.connection.bind("state_change", ({ current }: { current: string }) => states.push(current));
  try {
    await t.close();
    expect(await raw.closed).toEqual({ code: 4200, reason: "Server shutting down" });
    // 4200–4299: pusher-js reconnects at once rather than giving up (the service is gone, so it keeps trying).
    await until(() => states.includes("connecting"));
    expect(states).not.toContain("failed");
  } finally {
    pusher.disconnect();
  }
});

it("error: once the realtime server is closing, a new WebSocket upgrade is refused with 503 (the HTTP server may still be finishing requests)", async () => {
  const t = await createListeningTestApp("pglite");
  try {
    await t.services.realtime.close();
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/app/frontdesk?protocol=7`);
    socket.on("error", () => undefined);
    const status = await new Promise<number>((resolve) => socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0)));
    expect(status).toBe(503);
  } finally {
    await t.close();
  }
});
