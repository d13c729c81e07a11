import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRawResponse, rawRequest } from "../support/raw-http.js";
import { createListeningTestApp, rawClient, type ListeningTestApp } from "../support/realtime-clients.js";

describe("WebSocket upgrades with a path that is not valid percent-encoding, or not a URL", () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp("pglite");
  });
  afterAll(async () => {
    await t.close();
  });

  for (const key of ["%ZZ", "%E0%A4%A", "%"]) {
    it(`security: /app/${key} is refused as an unknown app key (4001), and the service keeps serving`, async () => {
      const raw = rawClient(`ws://127.0.0.1:${t.port}/app/${key}?protocol=7&client=js&version=8.4.0`);
      expect(await raw.next("pusher:error")).toMatchObject({ data: { code: 4001 } });
      expect((await raw.closed).code).toBe(4001);
      expect((await fetch(`http://127.0.0.1:${t.port}/livez`)).status).toBe(200);
      const good = rawClient(`ws://127.0.0.1:${t.port}/app/${t.services.config.realtime.appKey}?protocol=7&client=js&version=8.4.0`);
      await good.next("pusher:connection_established");
      good.socket.close();
      await good.closed;
    });
  }

  for (const path of ["//[", "//a@[::1", "http://["]) {
    it(`security: an upgrade to ${path} (no URL can be made of it) is 404, and the service keeps serving`, async () => {
      const exchange = await rawRequest(
        `http://127.0.0.1:${t.port}`,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      const response = parseRawResponse(exchange.text);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toEqual({ error: { code: "not_found", message: expect.any(String) } });
      expect((await fetch(`http://127.0.0.1:${t.port}/livez`)).status).toBe(200);
    });
  }
});
