import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { seedTenant, startSession, type Tenant } from "../support/seed.js";
import { openSocket, parseRawResponse, rawRequest, readUntilClosed } from "../support/raw-http.js";

const STREAM = "/api/v1/widget/messages/stream";

/** Our error shape, as a raw response carries it. */
function expectRawError(text: string, status: number, code: string): void {
  const response = parseRawResponse(text);
  expect(response.status, text.slice(0, 300)).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toEqual({ error: { code, message: expect.any(String) } });
}

describeEachStore("Connections as a raw socket sees them, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
      FRONTDESK_HTTP_HEADERS_TIMEOUT_SECONDS: "0.5",
      FRONTDESK_HTTP_REQUEST_TIMEOUT_SECONDS: "1",
    });
    tenant = await seedTenant(t.services);
    origin = await t.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => t.close());

  const streamRequest = (jwt: string, connection: "close" | "keep-alive") => {
    const body = JSON.stringify({ message: "Do you ship abroad?" });
    return [
      `POST ${STREAM} HTTP/1.1`,
      "Host: frontdesk.test",
      `Authorization: Bearer ${jwt}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Connection: ${connection}`,
      "",
      body,
    ].join("\r\n");
  };

  it("error: a control byte in a header is 400 bad_request in our shape, and the connection closes", async () => {
    const exchange = await rawRequest(origin, "GET /livez HTTP/1.1\r\nHost: frontdesk.test\r\nX-Note: a\x01b\r\n\r\n");
    expectRawError(exchange.text, 400, "bad_request");
    expect(exchange.closedByServer).toBe(true);
  });

  it("error: a request line that is not HTTP is 400 bad_request in our shape", async () => {
    const exchange = await rawRequest(origin, "HELLO THERE\r\n\r\n");
    expectRawError(exchange.text, 400, "bad_request");
    expect(exchange.closedByServer).toBe(true);
  });

  it("error: a 100 KB header is 431 header_too_large in our shape", async () => {
    const exchange = await rawRequest(origin, `GET /livez HTTP/1.1\r\nHost: frontdesk.test\r\nX-Big: ${"a".repeat(100 * 1024)}\r\n\r\n`);
    expectRawError(exchange.text, 431, "header_too_large");
    expect(exchange.closedByServer).toBe(true);
  });

  it("error: a malformed percent-encoding and an over-long path parameter are answered in our shape over the wire", async () => {
    expectRawError((await rawRequest(origin, "GET /api/v1/workspace/sources/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).text, 400, "bad_request");
    const long = `GET /api/v1/workspace/sources/${"a".repeat(500)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
    expectRawError((await rawRequest(origin, long)).text, 414, "uri_too_long");
  });

  it("error: CONNECT is 405 method_not_allowed and an unmet Expect is 417 expectation_failed, in our shape (Node alone drops or answers bodiless)", async () => {
    const connect = await rawRequest(origin, "CONNECT internal.example:443 HTTP/1.1\r\nHost: internal.example:443\r\n\r\n");
    expectRawError(connect.text, 405, "method_not_allowed");
    expect(connect.closedByServer).toBe(true);
    const expectation = await rawRequest(
      origin,
      "POST /api/v1/widget/typing HTTP/1.1\r\nHost: frontdesk.test\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    );
    expectRawError(expectation.text, 417, "expectation_failed");
  });

  it("security: a client sending its headers a byte at a time is cut after the headers timeout with 408 request_timeout", async () => {
    const socket = await openSocket(origin);
    const reading = readUntilClosed(socket);
    const request = Buffer.from("GET /livez HTTP/1.1\r\nHost: frontdesk.test\r\nX-Slow: ".padEnd(400, "s"), "latin1");
    let sent = 0;
    const drip = setInterval(() => {
      if (socket.destroyed || sent >= request.length) return;
      socket.write(request.subarray(sent, sent + 1));
      sent += 1;
    }, 50);
    const exchange = await reading.finally(() => clearInterval(drip));
    expectRawError(exchange.text, 408, "request_timeout");
    expect(exchange.closedByServer).toBe(true);
    expect(sent).toBeLessThan(request.length);
  });

  it("security: a connection that sends nothing at all is closed after the headers timeout (Node alone keeps it for ever)", async () => {
    const socket = await openSocket(origin);
    const exchange = await readUntilClosed(socket, { limitMs: 5_000 });
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.text).toBe("");
  });

  it("security: a body trickling in past the request timeout is cut with 408 request_timeout", async () => {
    const socket = await openSocket(origin);
    const reading = readUntilClosed(socket);
    socket.write(`POST /api/v1/widget/typing HTTP/1.1\r\nHost: frontdesk.test\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"typing":`);
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(" ");
    }, 50);
    const exchange = await reading.finally(() => clearInterval(drip));
    expectRawError(exchange.text, 408, "request_timeout");
    expect(exchange.closedByServer).toBe(true);
  });

  it("happy: POST /messages/stream with Connection: close answers Connection: close and closes the socket after the last frame", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const exchange = await rawRequest(origin, streamRequest(session.jwt, "close"));
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(response.headers.connection).toBe("close");
    expect(response.body).toContain('"event":"done"');
    expect(exchange.closedByServer).toBe(true);
  });

  it("happy: a kept-alive stream says keep-alive and the same connection serves the next request", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const socket = await openSocket(origin);
    const first = readUntilClosed(socket, { until: (text) => text.includes("\r\n0\r\n\r\n") });
    socket.write(streamRequest(session.jwt, "keep-alive"));
    const stream = await first;
    expect(stream.closedByServer).toBe(false);
    expect(parseRawResponse(stream.text).headers.connection).toBe("keep-alive");
    const second = readUntilClosed(socket, { until: (text) => text.includes('{"status":"ok"}') });
    socket.write("GET /livez HTTP/1.1\r\nHost: frontdesk.test\r\n\r\n");
    expect(parseRawResponse((await second).text).status).toBe(200);
    socket.destroy();
  });
});
