import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

type JsonObject = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "patch"] as const;
type Method = (typeof METHODS)[number];

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** An operation of the OpenAPI document and the roles its console session must have (OpenAPI 3.1 security roles). */
interface ConsoleOperation {
  method: Method;
  path: string;
  roles: string[];
  hasBody: boolean;
  /** A query parameter the route requires (erasure by a site's user id names the agent and the user so). */
  hasRequiredQuery: boolean;
}

function consoleOperations(document: JsonObject): ConsoleOperation[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    !path.startsWith(CONSOLE) || !isObject(item)
      ? []
      : METHODS.flatMap((method) => {
          const operation = item[method];
          if (!isObject(operation)) return [];
          const security = Array.isArray(operation.security) ? operation.security : [];
          const roles = security.flatMap((requirement: unknown) =>
            isObject(requirement) && Array.isArray(requirement.consoleSession) ? requirement.consoleSession.map(String) : [],
          );
          const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
          const hasRequiredQuery = parameters.some((parameter: unknown) => isObject(parameter) && parameter.in === "query" && parameter.required === true);
          return [{ method, path, roles, hasBody: "requestBody" in operation, hasRequiredQuery }];
        }),
  );
}

/** The operation's path with every parameter given a value no id schema accepts. */
const withInvalidParameters = (path: string) => path.replace(/\{[^}]+\}/g, "not.an.id");

describeEachStore("admin routes check the role before validating on %s", (kind) => {
  let t: TestApp;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let operations: ConsoleOperation[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ admin, agentOperator } = await seedConsoleCast(t));
    const document = await t.app.inject({ method: "GET", url: "/openapi.json" });
    expect(document.statusCode).toBe(200);
    operations = consoleOperations(document.json());
  }, 120_000);
  afterAll(() => t.close());

  /** A request no route accepts: parameters no id schema matches, and (where there is a body) a JSON array instead of an object. */
  const invalidRequest = (operation: ConsoleOperation, session: ConsoleSession) =>
    t.app.inject({
      method: operation.method.toUpperCase() as Uppercase<Method>,
      url: withInvalidParameters(operation.path),
      headers: { ...session.headers, ...(operation.hasBody ? { "content-type": "application/json" } : {}) },
      ...(operation.hasBody ? { payload: JSON.stringify(["not", "an", "object"]) } : {}),
    });

  it("security: every console route the OpenAPI document marks admin-only answers an agent's invalid request 403 forbidden, never 422", async () => {
    const adminOnly = operations.filter((operation) => operation.roles.includes("admin"));
    // The document names them: the two that validated first among them.
    expect(adminOnly.map((operation) => `${operation.method} ${operation.path}`)).toEqual(
      expect.arrayContaining([`post ${CONSOLE}/tokens`, `post ${CONSOLE}/operators`, `patch ${CONSOLE}/operators/{id}`, `delete ${CONSOLE}/webhooks/{id}`]),
    );
    expect(adminOnly.length).toBeGreaterThanOrEqual(25);
    const answers: string[] = [];
    for (const operation of adminOnly) {
      const asAgent = await invalidRequest(operation, agentOperator);
      answers.push(`${operation.method} ${operation.path}: ${asAgent.statusCode} ${asAgent.body}`);
      expect(asAgent.statusCode, answers.at(-1)).toBe(403);
      expect(asAgent.json(), answers.at(-1)).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
      // The same request from an admin is refused by validation: the agent's 403 came first.
      const hasInput = operation.hasBody || operation.hasRequiredQuery || operation.path.includes("{");
      const asAdmin = await invalidRequest(operation, admin);
      if (hasInput) expect(asAdmin.statusCode, `${operation.method} ${operation.path} as admin: ${asAdmin.body}`).toBe(422);
      else expect(asAdmin.statusCode, `${operation.method} ${operation.path} as admin: ${asAdmin.body}`).toBeLessThan(300);
    }
  });

  it("security: the role is checked after the session and the Origin: no cookie is 401, another origin 403 csrf_origin_mismatch", async () => {
    const invite = operations.find((operation) => operation.method === "post" && operation.path === `${CONSOLE}/operators`)!;
    const anonymous = await t.app.inject({ method: "POST", url: invite.path, payload: ["not", "an", "object"] });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("unauthenticated");
    const crossSite = await t.app.inject({ method: "POST", url: invite.path, headers: { cookie: agentOperator.headers.cookie, origin: "https://evil.example" }, payload: ["x"] });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error.code).toBe("csrf_origin_mismatch");
  });

  it("security: signing another operator out everywhere is an admin's: an agent naming an invalid id is 403, their own sessions are theirs to end", async () => {
    const other = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/operators/not.an.id/sessions`, headers: agentOperator.headers });
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe("forbidden");
    const asAdmin = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/operators/not.an.id/sessions`, headers: admin.headers });
    expect(asAdmin.statusCode).toBe(422);
    const own = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/operators/${agentOperator.operator.id}/sessions`, headers: agentOperator.headers });
    expect(own.statusCode).toBe(200);
  });
});
