import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { SITE_ORIGIN, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";

const W = "/api/v1/widget";
const widgetRoutes = ["/init", "/leads", "/events", "/request-human", "/typing", "/satisfaction", "/coupon/apply"];

describeEachStore("HTTP surface on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  it.each(widgetRoutes)("cors: OPTIONS %s answers 204 with the preflight headers", async (path) => {
    const response = await t.app.inject({
      method: "OPTIONS",
      url: `${W}${path}`,
      headers: { origin: "https://anywhere.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("https://anywhere.example");
    expect(response.headers["access-control-allow-methods"]).toBe("GET, POST, DELETE, OPTIONS");
    expect(response.headers["access-control-allow-headers"]).toBe("Authorization, Content-Type, Idempotency-Key");
    expect(Number(response.headers["access-control-max-age"])).toBeGreaterThan(0);
  });

  it("cors: POST answers (errors included) carry the allow-origin header", async () => {
    const response = await t.app.inject({ method: "POST", url: `${W}/events`, headers: { origin: SITE_ORIGIN }, payload: {} });
    expect(response.statusCode).toBe(401);
    expect(response.headers["access-control-allow-origin"]).toBe(SITE_ORIGIN);
  });

  it("error: malformed JSON is 400 invalid_json", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { "content-type": "application/json", origin: SITE_ORIGIN },
      payload: '{"agent_id": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: "invalid_json", message: expect.any(String) } });
  });

  it("error: a JSON body that is not an object is 422", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({
      method: "POST",
      url: `${W}/events`,
      headers: { ...bearer(session.jwt), "content-type": "application/json" },
      payload: "[1,2,3]",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe("validation_failed");
  });

  it("happy: a text/plain JSON body (sendBeacon) is read as JSON", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({
      method: "POST",
      url: `${W}/events`,
      headers: { ...bearer(session.jwt), "content-type": "text/plain;charset=UTF-8" },
      payload: JSON.stringify({ event: "launcher.open" }),
    });
    expect(response.statusCode).toBe(202);
  });

  it("error: an unsupported media type is 415 in the error shape", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { "content-type": "application/xml", origin: SITE_ORIGIN },
      payload: "<x/>",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe("unsupported_media_type");
  });

  it("error: an unknown route is 404 not_found in the error shape", async () => {
    const response = await t.app.inject({ method: "POST", url: `${W}/nope` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect((await t.app.inject({ method: "GET", url: "/nowhere" })).json().error.code).toBe("not_found");
  });

  it("error: GET on a widget POST route is 404 in the error shape, never 500", async () => {
    const response = await t.app.inject({ method: "GET", url: `${W}/init` });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("not_found");
  });

  it("error: hostile bodies never produce a 500", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const bodies = [
      "null",
      '"string"',
      "12",
      '{"__proto__": {"polluted": true}, "event": "x"}',
      '{"event": "\\u0000"}',
      `{"email": "${"a".repeat(100_000)}@x.com"}`,
      '{"fields": {"constructor": {"prototype": {}}}, "email": "p@example.com"}',
    ];
    for (const route of ["/events", "/leads", "/satisfaction", "/coupon/apply", "/request-human", "/typing"]) {
      for (const payload of bodies) {
        const response = await t.app.inject({
          method: "POST",
          url: `${W}${route}`,
          headers: { ...bearer(session.jwt), "content-type": "application/json" },
          payload,
        });
        expect(response.statusCode, `${route} ${payload.slice(0, 40)}`).toBeLessThan(500);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("happy: GET /livez answers without touching anything", async () => {
    expect((await t.app.inject({ method: "GET", url: "/livez" })).json()).toEqual({ status: "ok" });
  });

  it("happy: GET /healthz is 200 with the store reachable", async () => {
    const response = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "ok", store: { kind: t.services.db.kind, ok: true } });
  });

  it("happy: GET /metrics serves Prometheus text with requests by route and status and latency histograms", async () => {
    await t.app.inject({ method: "POST", url: `${W}/typing` });
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.body).toMatch(/frontdesk_http_requests_total\{method="POST",route="\/api\/v1\/widget\/typing",status="204"\} \d+/);
    expect(response.body).toContain("frontdesk_http_request_duration_seconds_bucket");
  });

  it("happy: GET /openapi.json is an OpenAPI 3.1 document generated from the route schemas", async () => {
    const response = await t.app.inject({ method: "GET", url: "/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.1.0");
    for (const path of widgetRoutes) expect(document.paths).toHaveProperty(`${W}${path}`);
    const init = document.paths[`${W}/init`].post;
    expect(init.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/InitRequest" });
    expect(document.components.schemas.InitRequest.required).toContain("agent_id");
    expect(init.responses["200"]).toBeDefined();
  });

  it("happy: the branding logo is served where init points", async () => {
    const response = await t.app.inject({ method: "GET", url: "/widget/logo.svg" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("image/svg+xml");
  });
});
