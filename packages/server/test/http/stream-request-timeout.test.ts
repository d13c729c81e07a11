import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { seedTenant, startSession, type Tenant } from "../support/seed.js";
import { parseRawResponse, rawRequest } from "../support/raw-http.js";
import { OPENAI_DONE, openAiChunkEvents } from "../answering/generate/fixtures/openai-chat-stream.js";
import { startLoopbackChatServer, type LoopbackChatServer, type ResponseStep } from "../answering/generate/loopback-chat-server.js";

const STREAM = "/api/v1/widget/messages/stream";
const REQUEST_TIMEOUT_SECONDS = 1;
const PAUSE_MS = 600;
const DELTAS = ["Parcels", " leave", " every", " weekday."];

/** A model streaming `DELTAS`, one every PAUSE_MS: an answer lasting well past the request timeout. */
function slowModelAnswer() {
  const steps: ResponseStep[] = [];
  for (const write of [...openAiChunkEvents(DELTAS), OPENAI_DONE]) steps.push({ pauseMs: PAUSE_MS }, { write });
  return { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" }, steps };
}

describeEachStore("The answer stream and the request timeout, on %s", (kind) => {
  let t: TestApp;
  let model: LoopbackChatServer;
  let tenant: Tenant;
  let origin: string;

  beforeAll(async () => {
    model = await startLoopbackChatServer();
    t = await createTestApp(kind, {
      FRONTDESK_LLM_PROVIDER: "openai",
      FRONTDESK_LLM_BASE_URL: model.origin,
      FRONTDESK_LLM_MODEL: "gpt-4o-mini",
      FRONTDESK_LLM_API_KEY: "test-key",
      FRONTDESK_LLM_TIMEOUT_S: "5",
      FRONTDESK_HTTP_HEADERS_TIMEOUT_SECONDS: "0.5",
      FRONTDESK_HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
    });
    tenant = await seedTenant(t.services);
    origin = await t.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  it("happy: a streamed answer lasting longer than the request timeout is delivered whole; the timeout only bounds receiving the request", async () => {
    model.respondWith(slowModelAnswer());
    const session = await startSession(t.app, tenant.agentId);
    const body = JSON.stringify({ message: "When do parcels leave?" });
    const started = Date.now();
    const exchange = await rawRequest(
      origin,
      [
        `POST ${STREAM} HTTP/1.1`,
        "Host: frontdesk.test",
        `Authorization: Bearer ${session.jwt}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
      20_000,
    );
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_SECONDS * 1000);
    const frames = [...response.body.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as { event: string; token?: string });
    expect(frames.filter((frame) => frame.event === "token").map((frame) => frame.token).join("")).toBe(DELTAS.join(""));
    expect(frames.at(-1)?.event).toBe("done");
    expect(response.body).not.toContain("request_timeout");
    expect(exchange.closedByServer).toBe(true);
  });
});
