import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { errorBodySchema } from "@frontdesk/contracts";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, SITE_ORIGIN, seedTenant, startSession, type Tenant } from "../support/seed.js";
import {
  deeplyNestedJson,
  hostileString,
  pathSegment,
  printableString,
  queryString,
  valueOfSchema,
  type JsonSchema,
} from "../support/hostile-arbitraries.js";
import { parseRawResponse, rawRequest } from "../support/raw-http.js";

/** Runs per operation of /openapi.json (13 today), seeded: a few hundred requests per store. */
const RUNS_PER_OPERATION = 60;
const RAW_RUNS = 80;
const SEED = 20261123;
const HIGH_LIMIT = "1000000";
/** Header values through `inject` may hold what no socket could carry (NUL, surrogates): the app must cope. */
const shortHostileString = hostileString.filter((value) => value.length > 0 && value.length < 200);

interface Operation {
  method: "GET" | "POST" | "DELETE" | "PUT" | "PATCH";
  path: string;
  security: string[];
  body: JsonSchema | undefined;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { security?: Record<string, unknown>[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase() as Operation["method"],
      path,
      security: (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
      body: operation.requestBody?.content?.["application/json"]?.schema,
    })),
  );
}

/** Asserts what every answer of the service must be: never a 5xx; an error in our shape, as JSON. */
function expectWellFormed(status: number, contentType: string | undefined, body: string, label: string): void {
  expect(status, `${label} → ${status} ${body.slice(0, 300)}`).toBeLessThan(500);
  if (status < 400) return;
  expect(contentType, label).toMatch(/^application\/json/);
  const parsed = errorBodySchema.strict().safeParse(JSON.parse(body));
  expect(parsed.success, `${label} → ${body.slice(0, 300)}`).toBe(true);
}

describeEachStore("Fuzzing every route of /openapi.json on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let document: OpenApiDocument;
  const credentials = { session: "", api: "", sourceIds: [] as string[] };

  beforeAll(async () => {
    t = await createTestApp(kind, {
      FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_TYPING_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_SATISFACTION_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_COUPON_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_RATE_LIMIT_WP_PER_MINUTE: HIGH_LIMIT,
      FRONTDESK_HTTP_HEADERS_TIMEOUT_SECONDS: "2",
      FRONTDESK_HTTP_REQUEST_TIMEOUT_SECONDS: "3",
    });
    tenant = await seedTenant(t.services, { vertical: "ecommerce" });
    credentials.session = (await startSession(t.app, tenant.agentId)).jwt;
    credentials.api = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "fuzz", abilities: ["sources:write", "wp:sync", "conversations:label"] })) as { token: string }).token;
    const source = await t.app.inject({
      method: "POST",
      url: "/api/v1/workspace/sources",
      headers: { authorization: `Bearer ${credentials.api}` },
      payload: { agent_id: tenant.agentId, kind: "text", title: "Hours", content: "We open at nine." },
    });
    credentials.sourceIds.push(source.json().data.id);
    document = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
  });
  afterAll(() => t.close());

  /** The Authorization header: mostly the right credential for the route, so deeper code runs. */
  const authorization = (operation: Operation): fc.Arbitrary<string | undefined> => {
    const right = operation.security.includes("apiToken") ? credentials.api : credentials.session;
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant(`Bearer ${right}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(`Bearer ${credentials.api}`, `Bearer ${credentials.session}`, `Bearer ${credentials.session.slice(0, -2)}xx`, "Bearer", "Basic YTpi") },
      { weight: 1, arbitrary: printableString(80).map((token) => `Bearer ${token}`) },
      { weight: 1, arbitrary: printableString(120) },
      { weight: 1, arbitrary: shortHostileString.map((token) => `Bearer ${token}`) },
    );
  };

  const requestOf = (operation: Operation) => {
    const components = document.components?.schemas ?? {};
    const known = {
      agent_id: fc.constantFrom(tenant.agentId, "agt_unknown"),
      page_url: fc.constant(`${SITE_ORIGIN}/products/1`),
      email: fc.oneof(fc.constantFrom("ada@example.com", "bob+orders@shop.example.com"), fc.emailAddress()),
    };
    const body = operation.body
      ? fc.oneof(
          { weight: 6, arbitrary: valueOfSchema(operation.body, components, known).map((value) => JSON.stringify(value)) },
          { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
          { weight: 1, arbitrary: hostileString },
          { weight: 1, arbitrary: deeplyNestedJson },
        )
      : fc.constant(undefined);
    const segment = pathSegment(credentials.sourceIds);
    return fc.record({
      path: fc.array(segment, { minLength: 1, maxLength: 1 }).map(([id]) => operation.path.replace("{id}", id!)),
      query: queryString,
      body,
      authorization: authorization(operation),
      origin: fc.oneof(
        { weight: 6, arbitrary: fc.constant(SITE_ORIGIN) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.webUrl().map((url) => new URL(url).origin) },
        { weight: 1, arbitrary: printableString(40) },
        { weight: 1, arbitrary: shortHostileString },
      ),
      contentType: fc.oneof(
        { weight: 16, arbitrary: fc.constant("application/json") },
        { weight: 1, arbitrary: fc.constantFrom("text/plain;charset=UTF-8", "application/problem+json", "application/x-www-form-urlencoded", "application/json; charset=utf-16") },
        { weight: 1, arbitrary: printableString(30) },
      ),
    });
  };

  it(`security: ${RUNS_PER_OPERATION} hostile requests per operation never get a 5xx, and every error is in our shape`, async () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThanOrEqual(13);
    for (const [index, operation] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(requestOf(operation), async (request) => {
          const headers: Record<string, string> = {};
          if (request.authorization !== undefined) headers.authorization = request.authorization;
          if (request.origin !== undefined) headers.origin = request.origin;
          if (request.body !== undefined) headers["content-type"] = request.contentType;
          const response: LightMyRequestResponse = await t.app.inject({
            method: operation.method,
            url: `${request.path}${request.query}`,
            headers,
            ...(request.body === undefined ? {} : { payload: request.body }),
          });
          const label = `${operation.method} ${request.path}${request.query} ${String(request.body).slice(0, 200)}`;
          expectWellFormed(response.statusCode, response.headers["content-type"] as string | undefined, response.body, label);
        }),
        { numRuns: RUNS_PER_OPERATION, seed: SEED + index, endOnFailure: true },
      );
    }
    // Its time grows with every route of the document (about 0.35 s per operation on PGlite, 85 operations): not the default 30 s.
  }, 120_000);

  it(`security: ${RAW_RUNS} hostile raw requests (control bytes, raw %-garbage, huge headers) are answered in our shape`, async () => {
    const origin = await t.app.listen({ host: "127.0.0.1", port: 0 });
    const operations = operationsOf(document);
    const byte = fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code));
    const rawText = (maxLength: number) => fc.string({ unit: byte, maxLength }).map((text) => text.replace(/[\r\n]/g, ""));
    const rawRequestArbitrary = fc.record({
      operation: fc.constantFrom(...operations),
      // Other methods too (PRI, HTTP/2's preface, is left out: Node closes such a connection unanswered).
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom("OPTIONS", "PUT", "PATCH", "TRACE", "CONNECT") },
        { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,10}$/).filter((method) => method !== "PRI") },
      ),
      segment: fc.oneof(pathSegment(credentials.sourceIds), rawText(30).map((text) => text.replace(/[ ?#]/g, ""))),
      headerName: fc.oneof(fc.constant("X-Note"), fc.stringMatching(/^[A-Za-z-]{1,20}$/), rawText(10).filter((name) => !name.includes(":"))),
      headerValue: fc.oneof(rawText(60), fc.integer({ min: 16_000, max: 100_000 }).map((length) => "v".repeat(length))),
      authorization: fc.constantFrom(credentials.session, credentials.api, "nope"),
      body: fc.oneof(fc.constant(""), rawText(200)),
    });
    await fc.assert(
      fc.asyncProperty(rawRequestArbitrary, async (request) => {
        const path = request.operation.path.replace("{id}", request.segment);
        const method = request.method ?? request.operation.method;
        const body = Buffer.from(request.body, "latin1");
        const head = [
          `${method} ${path} HTTP/1.1`,
          "Host: frontdesk.test",
          `Authorization: Bearer ${request.authorization}`,
          "Content-Type: application/json",
          `${request.headerName}: ${request.headerValue}`,
          `Content-Length: ${body.length}`,
          "Connection: close",
          "",
          "",
        ].join("\r\n");
        const exchange = await rawRequest(origin, Buffer.concat([Buffer.from(head, "latin1"), body]));
        const label = `${method} ${JSON.stringify(path).slice(0, 120)} ${JSON.stringify(request.headerName)}`;
        expect(exchange.text.length, `${label}: no answer at all`).toBeGreaterThan(0);
        const response = parseRawResponse(exchange.text);
        const content = response.headers["transfer-encoding"] === "chunked" ? dechunk(response.body) : response.body;
        expectWellFormed(response.status, response.headers["content-type"], content, label);
      }),
      { numRuns: RAW_RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

/** The payload of a chunked body. */
function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
