import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, bearer, seedTenant, SITE_ORIGIN, startSession, type Tenant } from "../support/seed.js";

const SOURCES = "/api/v1/workspace/sources";
const W = "/api/v1/widget";

/** Asserts the answer is our error shape with `code`, and returns its fields. */
function expectError(response: LightMyRequestResponse, status: number, code: string): Record<string, string[]> | undefined {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.error).toMatchObject({ code, message: expect.any(String) });
  expect(Object.keys(body.error).sort()).toEqual(body.error.fields ? ["code", "fields", "message"] : ["code", "message"]);
  return body.error.fields;
}

describeEachStore("Strings a store cannot keep, and ids that cannot be ids, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let token: string;
  const auth = () => bearer(token);
  const countSources = async () => (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`)).rows[0]!.n;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "1000" });
    tenant = await seedTenant(t.services);
    token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "sync" })) as { token: string }).token;
  });
  afterAll(() => t.close());

  it.each(["GET", "DELETE"] as const)("error: %s of a source id holding NUL (%%00, src_%%00) is 422 naming params.id", async (method) => {
    for (const id of ["%00", "src_%00", "src_abc%00def"]) {
      const fields = expectError(await t.app.inject({ method, url: `${SOURCES}/${id}`, headers: auth() }), 422, "validation_failed");
      expect(Object.keys(fields ?? {})).toEqual(["params.id"]);
    }
  });

  it.each(["GET", "DELETE"] as const)("error: %s of a path segment that cannot be an id is 422; a well-formed unknown id is 404", async (method) => {
    for (const id of ["src%20x", "src_%C3%A9", "a.b", "%F0%9F%98%80", "x".repeat(65)]) {
      const fields = expectError(await t.app.inject({ method, url: `${SOURCES}/${id}`, headers: auth() }), 422, "validation_failed");
      expect(Object.keys(fields ?? {})).toEqual(["params.id"]);
    }
    expectError(await t.app.inject({ method, url: `${SOURCES}/src_0000000000000000000000`, headers: auth() }), 404, "source_not_found");
  });

  it.each([
    ["a title that is a lone high surrogate", { title: "\ud800" }, "title"],
    ["a title with a lone low surrogate", { title: "ok \udc00 ok" }, "title"],
    ["content holding NUL", { content: "before\u0000after" }, "content"],
    ["a source_url holding NUL", { source_url: "https://shop.example.com/\u0000" }, "source_url"],
  ])("error: a text source with %s is 422 naming the field, and nothing is stored", async (_label, member, field) => {
    const before = await countSources();
    const payload = JSON.stringify({ agent_id: tenant.agentId, kind: "text", content: "Opening hours are 9 to 5.", ...member });
    const response = await t.app.inject({ method: "POST", url: SOURCES, headers: { ...auth(), "content-type": "application/json" }, payload });
    expect(Object.keys(expectError(response, 422, "validation_failed") ?? {})).toEqual([field]);
    expect(await countSources()).toBe(before);
  });

  it("happy: a well-formed surrogate pair (an emoji) is text like any other", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: SOURCES,
      headers: auth(),
      payload: { agent_id: tenant.agentId, kind: "text", title: "Smile \u{1F600}", content: `We love emoji \u{1F600} ${Date.now()}` },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.config.title).toBe("Smile \u{1F600}");
  });

  it("error: widget bodies with NUL or a lone surrogate in a nested member or a key are 422 naming it", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const post = (url: string, payload: string) =>
      t.app.inject({ method: "POST", url: `${W}${url}`, headers: { ...bearer(session.jwt), "content-type": "application/json" }, payload });
    const cases: [string, string, string][] = [
      ["/leads", '{"email":"ada@example.com","fields":{"company":"A\\u0000B"}}', "fields.company"],
      ["/leads", '{"email":"ada@example.com","fields":{"\\ud800":"x"}}', "fields.\ufffd"],
      ["/events", '{"event":"launcher.open","metadata":{"list":["ok","\\udfff"]}}', "metadata.list.1"],
      ["/messages", '{"message":"where is \\u0000 my order?"}', "message"],
      ["/messages/stream", '{"message":"\\ud83d alone"}', "message"],
      ["/request-human", '{"reason":"\\u0000"}', "reason"],
    ];
    for (const [url, payload, field] of cases) {
      expect(Object.keys(expectError(await post(url, payload), 422, "validation_failed") ?? {}), url).toEqual([field]);
    }
  });

  it("error: init with NUL in anon_id, or in a query string, is 422 naming it", async () => {
    const init = (url: string, payload: string) =>
      t.app.inject({ method: "POST", url, headers: { origin: SITE_ORIGIN, "content-type": "application/json" }, payload });
    const body = (extra: string) => `{"agent_id":"${tenant.agentId}","page_url":"${SITE_ORIGIN}/"${extra}}`;
    expect(Object.keys(expectError(await init(`${W}/init`, body(',"anon_id":"abcdefgh\\u0000"')), 422, "validation_failed") ?? {})).toEqual(["anon_id"]);
    expect(Object.keys(expectError(await init(`${W}/init?ref=%00`, body("")), 422, "validation_failed") ?? {})).toEqual(["querystring.ref"]);
    expect((await init(`${W}/init?ref=ok`, body(""))).statusCode).toBe(200);
  });

  it("error: a body nested deeper than 64 levels is 422 naming body (it was a 500 from 10,000 levels); 64 levels are fine", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const post = (depth: number) =>
      t.app.inject({
        method: "POST",
        url: `${W}/events`,
        headers: { ...bearer(session.jwt), "content-type": "application/json" },
        payload: `{"event":"deep","metadata":${'{"a":'.repeat(depth - 1)}1${"}".repeat(depth - 1)}}`,
      });
    expect((await post(64)).statusCode).toBe(202);
    for (const depth of [65, 10_000, 500_000]) {
      expect(Object.keys(expectError(await post(depth), 422, "validation_failed") ?? {})).toEqual(["body"]);
    }
  });

  it("error: an Origin or Authorization header holding NUL or a lone surrogate is 422 naming it", async () => {
    const init = (headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: `${W}/init`, headers, payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/` } });
    expect(Object.keys(expectError(await init({ origin: `${SITE_ORIGIN}\u0000` }), 422, "validation_failed") ?? {})).toEqual(["headers.origin"]);
    const list = await t.app.inject({ method: "GET", url: SOURCES, headers: { authorization: `Bearer fdk_\ud800` } });
    expect(Object.keys(expectError(list, 422, "validation_failed") ?? {})).toEqual(["headers.authorization"]);
  });

  it("error: an unknown route is 404 not_found whatever its URL holds (NUL included)", async () => {
    expectError(await t.app.inject({ method: "GET", url: "/healthz/%00?q=%00" }), 404, "not_found");
  });

  it("error: a percent-encoding that is not UTF-8 in a path is 400 bad_request; an over-long one 414 uri_too_long", async () => {
    expectError(await t.app.inject({ method: "GET", url: `${SOURCES}/%ED%A0%80`, headers: auth() }), 400, "bad_request");
    expectError(await t.app.inject({ method: "GET", url: `${SOURCES}/src_%E0%A4%A`, headers: auth() }), 400, "bad_request");
    expectError(await t.app.inject({ method: "DELETE", url: `${SOURCES}/${"a".repeat(101)}`, headers: auth() }), 414, "uri_too_long");
  });

  it("error: a body in another charset than UTF-8 is 415 and stores nothing; utf-8 named in any case is read", async () => {
    const before = await countSources();
    const body = { agent_id: tenant.agentId, kind: "text", title: "Café", content: "Prix en euros, livraison offerte." };
    for (const charset of ["utf-16", "UTF-16LE", "iso-8859-1", '"latin1"']) {
      const response = await t.app.inject({
        method: "POST",
        url: SOURCES,
        headers: { ...auth(), "content-type": `application/json; charset=${charset}` },
        payload: Buffer.from(JSON.stringify(body), charset.includes("16") ? "utf16le" : "latin1"),
      });
      expect(expectError(response, 415, "unsupported_media_type")).toBeUndefined();
      expect(response.json().error.message).toContain("UTF-8");
    }
    expect(await countSources()).toBe(before);
    const accepted = await t.app.inject({ method: "POST", url: SOURCES, headers: { ...auth(), "content-type": "application/json; Charset=UTF-8" }, payload: JSON.stringify(body) });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data.config.title).toBe("Café");
    expect(await countSources()).toBe(before + 1);
  });
});
