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

  const handshake = (method: string, headers: string) =>
    rawRequest(`http://127.0.0.1:${t.port}`, `${method} /app/${t.services.config.realtime.appKey}?protocol=7 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${headers}\r\n`);

  it("error: handshakes ws refuses (method, key, version) are answered in our shape, not ws's HTML", async () => {
    const key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    const cases = [
      { method: "POST", headers: `Sec-WebSocket-Version: 13\r\n${key}`, status: 405, code: "method_not_allowed" },
      { method: "GET", headers: "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n", status: 400, code: "bad_request" },
      { method: "GET", headers: `Sec-WebSocket-Version: 99\r\n${key}`, status: 400, code: "bad_request" },
    ];
    for (const { method, headers, status, code } of cases) {
      const response = parseRawResponse((await handshake(method, headers)).text);
      expect({ method, headers, status: response.status, type: response.headers["content-type"] }).toEqual({ method, headers, status, type: "application/json; charset=utf-8" });
      expect(JSON.parse(response.body)).toEqual({ error: { code, message: expect.any(String) } });
      if (headers.includes("99")) expect(response.headers["sec-websocket-version"]).toBe("13, 8");
    }
    expect((await fetch(`http://127.0.0.1:${t.port}/livez`)).status).toBe(200);
  });
});
