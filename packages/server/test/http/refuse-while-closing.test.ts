import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { openSocket, parseRawResponse, readUntilClosed } from "../support/raw-http.js";

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describeEachStore("Requests arriving while the service closes, on %s", (kind) => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    origin = await t.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => t?.close());

  it("error: a request completed after close began is 503 service_unavailable in our shape, with Connection: close", async () => {
    const socket = await openSocket(origin);
    const reading = readUntilClosed(socket);
    socket.write("GET /livez HTTP/1.1\r\nHost: frontdesk.test\r\n"); // under way: its connection is not idle
    await pause(100);
    const closed = t.app.close();
    await pause(100);
    socket.write("\r\n");
    const exchange = await reading;
    await closed;
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(503);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({ error: { code: "service_unavailable", message: expect.any(String) } });
    expect(exchange.closedByServer).toBe(true);
  });

  it("happy: closing ends a connection that never sent a request, and one whose request is answered after closing began, instead of waiting for their timeouts", async () => {
    const other = await createTestApp(kind, { FRONTDESK_HTTP_HEADERS_TIMEOUT_SECONDS: "60", FRONTDESK_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "600" });
    const otherOrigin = await other.app.listen({ host: "127.0.0.1", port: 0 });
    const silent = await openSocket(otherOrigin);
    const silentClosed = readUntilClosed(silent, { limitMs: 30_000 });
    // Its request is under way when closing starts: headers in (so it is not refused), body still arriving.
    const busy = await openSocket(otherOrigin);
    const busyClosed = readUntilClosed(busy, { limitMs: 30_000 });
    const body = JSON.stringify({ typing: true });
    busy.write(`POST /api/v1/widget/typing HTTP/1.1\r\nHost: frontdesk.test\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await pause(100);
    const closing = other.close();
    await pause(1500); // past the second that connections with nothing in progress are given
    busy.write(body.slice(5));
    await closing;
    expect((await silentClosed).closedByServer).toBe(true);
    const exchange = await busyClosed;
    expect(exchange.closedByServer).toBe(true);
    expect(parseRawResponse(exchange.text).status).toBe(204);
  });
});
