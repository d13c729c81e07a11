import { compileErrors, validate } from "@readme/openapi-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";

type JsonObject = Record<string, unknown>;
interface Operation {
  path: string;
  method: string;
  operation: JsonObject;
}

const PUBLIC_URL = "https://frontdesk.example.com";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
const W = "/api/v1/widget";
const S = "/api/v1/workspace/sources";
const C = "/api/v1/console";
const WP = "/api/v1/wp";
/** The workspace API's labelling routes (an API token with `conversations:label`). */
const WL = "/api/v1/workspace/";
/** Widget routes that take the session token, and the one where it is optional. */
const SESSION_ROUTES = ["/leads", "/events", "/request-human", "/satisfaction", "/messages/{message_id}/feedback", "/coupon/apply", "/messages", "/messages/stream", "/broadcasting/auth", "/conversation/close", "/conversation/seen", "/conversation/transcript"].map((path) => `${W}${path}`);

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
const objectAt = (value: unknown, ...keys: string[]): JsonObject => {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  if (!isObject(current)) throw new Error(`no object at ${keys.join(".")}`);
  return current;
};

function operationsOf(document: JsonObject): Operation[] {
  return Object.entries(objectAt(document, "paths")).flatMap(([path, item]) =>
    Object.entries(objectAt(item)).filter(([method]) => METHODS.includes(method)).map(([method, operation]) => ({ path, method, operation: objectAt(operation) })),
  );
}

function referencesIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, into);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") into.add(child);
      else referencesIn(child, into);
    }
  }
  return into;
}

/** The document is the same on every store: it is read from one app (PGlite). */
/** Console routes called without a session (no `consoleSession` requirement). */
const BEFORE_A_SESSION = ["session", "password", "setup", "setup/status", "session/second-factor", "session/totp-enrolment", "session/totp-enrolment/confirm", "sso/discover", "sso/start", "sso/callback"].map(
  (path) => `/api/v1/console/${path}`,
);

describe("the OpenAPI document (GET /openapi.json)", () => {
  let t: TestApp;
  let document: JsonObject;
  let operations: Operation[];

  beforeAll(async () => {
    t = await createTestApp("pglite", { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
    const response = await t.app.inject({ method: "GET", url: "/openapi.json" });
    expect(response.statusCode).toBe(200);
    document = response.json();
    operations = operationsOf(document);
  });
  afterAll(() => t.close());

  it("happy: is a valid OpenAPI 3.1 document for a maintained validator", async () => {
    expect(document.openapi).toBe("3.1.0");
    // The validator is what checks that the served JSON is such a document; its parameter is typed as one.
    const result = await validate(structuredClone(document) as OpenAPIV3_1.Document);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("happy: documents every public route, and nothing else", () => {
    const documented = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort();
    expect(documented).toEqual(
      [
        ...["/init", "/rules", "/leads", "/events", "/request-human", "/typing", "/satisfaction", "/coupon/apply", "/messages", "/messages/stream", "/messages/{message_id}/feedback", "/broadcasting/auth", "/conversation/close", "/conversation/seen", "/conversation/transcript"].map((path) => `POST ${W}${path}`),
        `GET ${W}/conversation`,
        `GET ${W}/conversation/messages`,
        `POST ${W}/attachments`,
        `GET ${W}/attachments/{id}/{filename}`,
        "POST /api/v1/console/conversations/{id}/attachments",
        "GET /api/v1/console/attachments/{id}/{filename}",
        ...["assign", "messages", "release", "close", "typing"].map((action) => `POST /api/v1/console/conversations/{id}/${action}`),
        ...["POST", "DELETE"].map((method) => `${method} /api/v1/console/conversations/{id}/snooze`),
        ...["POST /session", "DELETE /session", "GET /me", "POST /password", "POST /broadcasting/auth"].map((route) => route.replace(" ", " /api/v1/console")),
        ...[
          "POST /session/second-factor",
          "POST /session/totp-enrolment",
          "POST /session/totp-enrolment/confirm",
          "POST /session/sign-out",
          "GET /me/two-factor",
          "POST /me/two-factor/enrolment",
          "POST /me/two-factor/enrolment/confirm",
          "POST /me/two-factor/recovery-codes",
          "POST /me/two-factor/disable",
          "GET /workspace/sign-in",
          "PATCH /workspace/sign-in",
          "GET /sso/discover",
          "POST /sso/start",
          "GET /sso/callback",
          "GET /workspace/sso",
          "PUT /workspace/sso",
          "DELETE /workspace/sso",
        ].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /conversations", "GET /conversations/{id}", "GET /conversations/{id}/messages", "POST /conversations/{id}/read", "GET /notifications", "POST /notifications/read"].map(
          (route) => route.replace(" ", " /api/v1/console"),
        ),
        ...["POST /setup/status", "POST /setup"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /agents", "POST /agents", "GET /agents/{id}", "PATCH /agents/{id}", "POST /agents/{id}/publish", "POST /agents/{id}/unpublish", "GET /agents/{id}/snippet", "POST /agents/{id}/identity-secret"].map((route) =>
          route.replace(" ", " /api/v1/console"),
        ),
        ...[
          "GET /knowledge/sources",
          "POST /knowledge/sources",
          "GET /knowledge/sources/{id}",
          "PATCH /knowledge/sources/{id}",
          "DELETE /knowledge/sources/{id}",
          "POST /knowledge/sources/{id}/resync",
          "GET /knowledge/sources/{id}/documents",
          "GET /knowledge/sources/{id}/documents/{document_id}",
          "PATCH /knowledge/sources/{id}/documents/{document_id}",
          "POST /knowledge/try",
        ].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /leads", "GET /leads.csv", "GET /tokens", "POST /tokens", "DELETE /tokens/{id}", "GET /operators", "POST /operators", "POST /operators/{id}/password-link", "PATCH /operators/{id}", "DELETE /operators/{id}", "DELETE /operators/{id}/sessions", "GET /workspace/usage", "GET /analytics", "GET /answers"].map(
          (route) => route.replace(" ", " /api/v1/console"),
        ),
        ...["GET /curated-answers", "POST /curated-answers", "PATCH /curated-answers/{id}", "DELETE /curated-answers/{id}", "GET /knowledge-gaps"].map((route) =>
          route.replace(" ", " /api/v1/console"),
        ),
        ...["GET /answer-tests", "POST /answer-tests", "POST /answer-tests/import", "DELETE /answer-tests/{id}", "POST /answer-tests/runs", "GET /answer-tests/runs", "GET /answer-tests/runs/{id}"].map(
          (route) => route.replace(" ", " /api/v1/console"),
        ),
        ...["DELETE /visitors/{id}", "GET /visitors/{id}/export", "DELETE /visitors/by-user", "GET /visitors/by-user/export"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["POST /conversations/{id}/notes", "GET /conversations/{id}/notes"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /saved-replies", "POST /saved-replies", "PATCH /saved-replies/{id}", "DELETE /saved-replies/{id}", "POST /saved-replies/{id}/render"].map((route) =>
          route.replace(" ", " /api/v1/console"),
        ),
        ...["GET /webhooks", "POST /webhooks", "PATCH /webhooks/{id}", "DELETE /webhooks/{id}", "GET /webhooks/{id}/deliveries", "POST /webhooks/{id}/test"].map((route) =>
          route.replace(" ", " /api/v1/console"),
        ),
        ...["GET /mail", "GET /me/preferences", "PATCH /me/preferences", "GET /me/availability", "PUT /me/availability"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /embeddings", "PUT /embeddings", "POST /embeddings/retry"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /push/key", "GET /push/devices", "POST /push/devices", "DELETE /push/devices/{id}"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["GET /workspace/model-provider", "PUT /workspace/model-provider", "DELETE /workspace/model-provider", "POST /workspace/model-provider/test"].map((route) =>
          route.replace(" ", " /api/v1/console"),
        ),
        `DELETE ${W}/me`,
        `GET ${S}`,
        `POST ${S}`,
        `GET ${S}/{id}`,
        `DELETE ${S}/{id}`,
        `GET ${S}/{id}/documents`,
        `GET ${S}/{id}/documents/{document_id}`,
        `PATCH ${S}/{id}/documents/{document_id}`,
        `PUT ${S}/{id}/file`,
        "GET /api/v1/files/{id}/{filename}",
        `POST ${WP}/posts`,
        `DELETE ${WP}/posts/{post_id}`,
        `GET ${WP}/status`,
        "POST /api/v1/inbound-mail/mailgun",
        "POST /api/v1/inbound-mail/postmark",
        ...["GET /labels", "POST /labels", "PATCH /labels/{id}", "DELETE /labels/{id}", "GET /conversations/{id}/visitor"].map((route) => route.replace(" ", " /api/v1/console")),
        ...["PUT", "DELETE"].map((method) => `${method} /api/v1/console/conversations/{id}/labels/{label_id}`),
        `GET ${WL}labels`,
        ...["PUT", "DELETE"].map((method) => `${method} ${WL}conversations/{id}/labels/{label_id}`),
      ].sort(),
    );
    for (const { method, path } of operations) {
      expect(t.app.hasRoute({ method: method.toUpperCase() as "GET", url: path.replace("{id}", ":id").replace("{post_id}", ":post_id").replace("{message_id}", ":message_id").replace("{document_id}", ":document_id").replace("{filename}", ":filename").replace("{label_id}", ":label_id") }), path).toBe(true);
    }
  });

  it("happy: every operation has a unique operationId, a summary, a description and a tag", () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { path, operation } of operations) {
      expect(operation.operationId, path).toMatch(/^[a-z][A-Za-z]+$/);
      expect(String(operation.summary ?? "").length, path).toBeGreaterThan(10);
      expect(String(operation.description ?? "").length, path).toBeGreaterThan(40);
      expect(operation.tags, path).toEqual([path.startsWith(W) ? "widget" : path.startsWith(S) ? "sources" : path.startsWith(WL) ? "labels" : path.startsWith(WP) ? "wordpress" : path.startsWith("/api/v1/inbound-mail/") ? "inbound-mail" : path.startsWith("/api/v1/files/") ? "files" : "console"]);
    }
  });

  it("happy: every response has a real description, and every error response is the Error schema", () => {
    for (const { path, method, operation } of operations) {
      const responses = objectAt(operation, "responses");
      // A success, or a redirect (the OpenID provider's callback sends the browser on).
      expect(Object.keys(responses).some((status) => status.startsWith("2") || status === "302"), path).toBe(true);
      for (const [status, response] of Object.entries(responses)) {
        const description = String(objectAt(response).description ?? "");
        expect(description, `${method} ${path} ${status}`).not.toMatch(/^(Default Response)?$/);
        if (Number(status) >= 400) {
          expect(objectAt(response, "content", "application/json", "schema"), `${method} ${path} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
          expect(description, `${method} ${path} ${status}`).toMatch(/`[a-z_]+`/);
        }
      }
      if (operation.requestBody) {
        expect(Object.keys(objectAt(responses)), path).toEqual(expect.arrayContaining(["400", "413", "415", "422", "500"]));
      }
    }
  });

  it("happy: each route lists the errors it gives, with their codes", () => {
    const operation = (method: string, path: string) => operations.find((entry) => entry.method === method && entry.path === path)?.operation;
    const describedCodes = (method: string, path: string, status: string) => String(objectAt(operation(method, path), "responses", status).description);
    expect(describedCodes("post", `${W}/init`, "403")).toContain("origin_forbidden");
    expect(describedCodes("post", `${W}/init`, "404")).toContain("agent_not_found");
    expect(describedCodes("post", `${W}/init`, "429")).toContain("plan_limit_reached");
    expect(describedCodes("post", `${W}/init`, "401")).toMatch(/identity_invalid.*identity_required/);
    expect(describedCodes("post", `${W}/coupon/apply`, "403")).toContain("coupon_not_available");
    for (const path of SESSION_ROUTES) expect(describedCodes("post", path, "401")).toMatch(/missing_token.*invalid_token.*token_expired/);
    expect(describedCodes("get", `${S}/{id}`, "404")).toContain("source_not_found");
    expect(describedCodes("post", S, "404")).toContain("agent_not_found");
    for (const { path, method } of operations.filter((entry) => entry.path.startsWith(S))) {
      expect(describedCodes(method, path, "401")).toMatch(/missing_token.*invalid_token/);
      expect(describedCodes(method, path, "403")).toContain("missing_ability");
      expect(describedCodes(method, path, "403")).toContain(method === "get" ? "sources:read" : "sources:write");
      expect(describedCodes(method, path, "429")).toContain("rate_limited");
    }
    for (const { path, method } of operations.filter((entry) => entry.path.startsWith(WP))) {
      expect(describedCodes(method, path, "401")).toMatch(/missing_token.*invalid_token/);
      expect(describedCodes(method, path, "403")).toContain("wp:sync");
      expect(describedCodes(method, path, "404")).toContain("agent_not_found");
      expect(describedCodes(method, path, "429")).toContain("rate_limited");
    }
  });

  it("security: session routes require the session token, Sources routes the API token, init nothing, typing optionally", () => {
    const schemes = objectAt(document, "components", "securitySchemes");
    expect(schemes.sessionToken).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(schemes.apiToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.consoleSession).toMatchObject({ type: "apiKey", in: "cookie", name: "frontdesk_console_session" });
    expect(document.security).toBeUndefined();
    for (const { path, operation } of operations) {
      if (SESSION_ROUTES.includes(path)) expect(operation.security, path).toEqual([{ sessionToken: [] }]);
      else if (path.startsWith(S) || path.startsWith(WP) || path.startsWith(WL)) expect(operation.security, path).toEqual([{ apiToken: [] }]);
      // An admin-only route names the role (OpenAPI 3.1 allows roles for a scheme other than OAuth): test/console/admin-role-before-validation.test.ts.
      // Before a session: signing in (its second step, single sign-on), choosing a password, the first run.
      else if (path.startsWith(C) && !BEFORE_A_SESSION.includes(path)) {
        expect([[{ consoleSession: [] }], [{ consoleSession: ["admin"] }]], path).toContainEqual(operation.security);
      }
    }
    const byPath = (path: string) => operations.find((entry) => entry.path === path)?.operation;
    expect(byPath(`${W}/init`)?.security).toEqual([]);
    expect(byPath(`${W}/typing`)?.security).toEqual([{}, { sessionToken: [] }]);
  });

  it("happy: rate-limited operations document their headers: X-RateLimit-* on successes, and Retry-After on 429", () => {
    for (const { path, method, operation } of operations) {
      const responses = objectAt(operation, "responses");
      // Every widget and Sources route is limited; of the console's, signing in and choosing a password.
      if (path.startsWith(C) && !["/api/v1/console/session", "/api/v1/console/password", "/api/v1/console/setup", "/api/v1/console/setup/status"].includes(path)) continue;
      if (path === "/api/v1/console/session" && method === "delete") continue;
      // An attachment's file: opened by its link's signature (checked before the store is read) or by the session token.
      if (path === `${W}/attachments/{id}/{filename}`) continue;
      expect(Object.keys(responses), `${method} ${path}`).toContain("429");
      expect(Object.keys(objectAt(responses, "429", "headers")).sort(), `${method} ${path}`).toEqual(["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]);
      for (const status of Object.keys(responses).filter((code) => code.startsWith("2"))) {
        expect(objectAt(responses, status, "headers"), `${method} ${path} ${status}`).toHaveProperty("X-RateLimit-Remaining.schema", { type: "integer" });
      }
    }
  });

  it("happy: a body that may be left out (read as {}) is not required; the others are", () => {
    const required = Object.fromEntries(
      operations.filter(({ operation }) => operation.requestBody).map(({ path, operation }) => [path, objectAt(operation, "requestBody").required]),
    );
    expect(required).toMatchObject({ [`${W}/typing`]: false, [`${W}/request-human`]: false, [`${W}/init`]: true, [`${W}/messages`]: true, [S]: true });
  });

  it("happy: named component schemas exist and the operations refer to them", () => {
    const schemas = objectAt(document, "components", "schemas");
    const named = ["Error", "Source", "SourceError", "Lead", "Citation", "Message", "Agent", "Branding", "Session", "Answer", "StreamFrame", "CreateSourceRequest", "InitRequest", "MessageRequest"];
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(named));
    const referenced = referencesIn(document);
    for (const name of Object.keys(schemas)) expect(referenced.has(`#/components/schemas/${name}`), `${name} is referenced`).toBe(true);
    for (const reference of referenced) expect(schemas, reference).toHaveProperty(reference.replace("#/components/schemas/", ""));
    const lead = objectAt(operations.find(({ operation }) => operation.operationId === "captureLead")?.operation, "responses", "201", "content", "application/json", "schema");
    expect(objectAt(lead, "properties", "data")).toEqual({ $ref: "#/components/schemas/Lead" });
    expect(objectAt(schemas, "Source", "properties", "error")).toMatchObject({ anyOf: expect.arrayContaining([{ $ref: "#/components/schemas/SourceError" }]) });
    expect(objectAt(schemas, "Message", "properties", "citations", "items")).toEqual({ $ref: "#/components/schemas/Citation" });
    expect(objectAt(schemas, "Source", "properties", "created_at")).toMatchObject({ type: "string", format: "date-time" });
    expect(Object.keys(schemas).filter((name) => name.endsWith("Input"))).toEqual([]);
    expect(objectAt(schemas, "Session", "properties", "jwt").description).toMatch(/Authorization: Bearer/);
    expect(objectAt(schemas, "Session", "properties", "expires_at")).toMatchObject({ format: "date-time", description: "ISO 8601, UTC." });
    expect(objectAt(schemas, "InitRequest", "properties", "page_url")).toMatchObject({ format: "uri", description: "An absolute http(s) URL." });
  });

  it("happy: /messages/stream is 200 text/event-stream with its frames described", () => {
    const stream = operations.find(({ path }) => path === `${W}/messages/stream`)?.operation;
    const ok = objectAt(stream, "responses", "200");
    expect(Object.keys(objectAt(ok, "content"))).toEqual(["text/event-stream"]);
    expect(objectAt(ok, "content", "text/event-stream", "schema")).toEqual({ $ref: "#/components/schemas/StreamFrame" });
    for (const event of ["token", "citations", "error", "done"]) expect(String(ok.description)).toContain(`"event":"${event}"`);
    expect(String(ok.description)).toContain(": keep-alive");
    const frames = objectAt(document, "components", "schemas", "StreamFrame");
    expect(frames.oneOf).toEqual(["TokenFrame", "CitationsFrame", "ErrorFrame", "DoneFrame"].map((name) => ({ $ref: `#/components/schemas/${name}` })));
    expect(objectAt(document, "components", "schemas", "ErrorFrame", "properties", "code")).toMatchObject({ enum: ["generation_failed", "generation_timeout", "internal_error"] });
  });

  it("happy: servers is FRONTDESK_PUBLIC_URL, and the info and tags describe the API", () => {
    expect(document.servers).toEqual([{ url: PUBLIC_URL, description: expect.any(String) }]);
    expect(String(objectAt(document, "info").description)).toContain("sessionToken");
    expect((document.tags as JsonObject[]).map((tag) => tag.name)).toEqual(["widget", "sources", "wordpress", "labels", "inbound-mail", "files", "console"]);
  });
});
