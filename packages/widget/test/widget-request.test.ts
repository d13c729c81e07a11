import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngagementApi } from "../src/app/engagement/engagement-api.js";
import { HandoffApi } from "../src/app/handoff/handoff-api.js";
import { WidgetApiClient } from "../src/app/widget-api-client.js";
import { WidgetApiError, widgetRequest } from "../src/app/widget-request.js";

const SOURCES = fileURLToPath(new URL("../src/", import.meta.url));

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

/**
 * The widget's one request function and the three API clients built on it, against a loopback
 * service answering as the widget API does (and as a proxy in front of it may).
 */
describe("the widget's requests to the widget API", () => {
  let server: Server;
  let serviceUrl: string;
  const seen: Seen[] = [];
  const answers = new Map<string, (response: ServerResponse) => void>();

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        const url = request.url ?? "";
        seen.push({ method: request.method ?? "", url, authorization: request.headers.authorization, contentType: request.headers["content-type"], body });
        const answer = answers.get(url.replace(/\?.*$/, ""));
        if (answer) answer(response);
        else response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"code":"not_found","message":"No route."}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (response: ServerResponse) =>
      response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    answers.set("/api/v1/widget/conversation", json(200, { data: { status: "bot", assignee: null, operators_online: true, human_requested_at: null, updated_seq: null } }));
    answers.set("/api/v1/widget/typing", (response) => response.writeHead(204).end());
    answers.set("/api/v1/widget/coupon/apply", json(429, { error: { code: "rate_limited", message: "Too many requests." } }, { "retry-after": "7" }));
    answers.set("/api/v1/widget/events", (response) => response.writeHead(502, { "content-type": "text/html" }).end("<html>Bad gateway</html>"));
    answers.set("/api/v1/widget/init", json(403, { error: { code: "origin_forbidden", message: "This page's origin is not allowed to use this agent." } }));
    answers.set("/api/v1/widget/messages/stream", json(429, { error: { code: "rate_limited", message: "Too many requests." } }, { "retry-after": "12" }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(WidgetApiError);
    const { status, code, retryAfter } = error as WidgetApiError;
    return { status, code, retryAfter };
  };

  it("happy: the parsed body of a success, the token as a bearer header, JSON only when there is a body, nothing for a 204", async () => {
    const api = new HandoffApi(serviceUrl, () => "token-1");
    expect(await api.conversation()).toEqual({ status: "bot", assignee: null, operators_online: true, human_requested_at: null, updated_seq: null });
    expect(await api.typing()).toBeUndefined();
    expect(seen.slice(-2)).toEqual([
      { method: "GET", url: "/api/v1/widget/conversation", authorization: "Bearer token-1", contentType: undefined, body: "" },
      { method: "POST", url: "/api/v1/widget/typing", authorization: "Bearer token-1", contentType: "application/json", body: '{"typing":true}' },
    ]);
  });

  it("error: every client's refusals are the same typed error, with the status, the stable code and Retry-After", async () => {
    // The engagement routes' refusals carry Retry-After too (they had an error class of their own without it).
    expect(await refusal(new EngagementApi(serviceUrl).coupon("token-2", "SPRING-20"))).toEqual({ status: 429, code: "rate_limited", retryAfter: 7 });
    expect(await refusal(new WidgetApiClient(serviceUrl).streamAnswer("token-2", { message: "Hi", page_url: "https://shop.example.com/" }, () => {}))).toEqual({
      status: 429,
      code: "rate_limited",
      retryAfter: 12,
    });
    expect(await refusal(new WidgetApiClient(serviceUrl).init({ agent_id: "agt_1", page_url: "https://shop.example.com/" }))).toEqual({
      status: 403,
      code: "origin_forbidden",
      retryAfter: null,
    });
    expect(await refusal(new HandoffApi(serviceUrl, () => "token-2").requestHuman())).toEqual({ status: 404, code: "not_found", retryAfter: null });
  });

  it("error: an answer that is not the service's (a proxy's HTML page) keeps its status as http_error", async () => {
    expect(await refusal(new EngagementApi(serviceUrl).event("token-3", "launcher.open"))).toEqual({ status: 502, code: "http_error", retryAfter: null });
    expect(await refusal(widgetRequest(serviceUrl, "events", { body: {} }))).toEqual({ status: 502, code: "http_error", retryAfter: null });
  });

  it("happy: the widget's code calls fetch in one place, the request module", async () => {
    const files = (await readdir(SOURCES, { recursive: true })).filter((name) => /\.tsx?$/.test(name));
    const callers: string[] = [];
    for (const name of files) if (/\bfetch\(/.test(await readFile(join(SOURCES, name), "utf8"))) callers.push(name.split("\\").join("/"));
    expect(callers).toEqual(["app/widget-request.ts"]);
  });
});
