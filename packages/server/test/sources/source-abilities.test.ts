import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, bearer, seedTenant, type Tenant } from "../support/seed.js";

const SOURCES = "/api/v1/workspace/sources";

describeEachStore("API token abilities on the Sources API, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let sourceId: string;
  const tokens: Record<"read" | "write" | "both", string> = { read: "", write: "", both: "" };

  const createToken = async (abilities: string[]) =>
    ((await runAdminCommand(adminOf(t.services), {
      command: "token.create",
      workspaceId: tenant.workspaceId,
      name: abilities.join("+") || "no abilities",
      abilities: abilities as ["sources:write"],
    })) as { token: string }).token;
  const countSources = async () => (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`)).rows[0]!.n;
  const create = (token: string) =>
    t.app.inject({ method: "POST", url: SOURCES, headers: bearer(token), payload: { agent_id: tenant.agentId, kind: "text", content: `Opening hours ${Math.random()}` } });

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "1000" });
    tenant = await seedTenant(t.services);
    tokens.read = await createToken(["sources:read"]);
    tokens.write = await createToken(["sources:write"]);
    tokens.both = await createToken(["sources:read", "sources:write"]);
    sourceId = (await create(tokens.write)).json().data.id;
  });
  afterAll(() => t.close());

  it("happy: sources:read lists the workspace's sources and reads one", async () => {
    const list = await t.app.inject({ method: "GET", url: SOURCES, headers: bearer(tokens.read) });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((source: { id: string }) => source.id)).toContain(sourceId);
    const one = await t.app.inject({ method: "GET", url: `${SOURCES}/${sourceId}`, headers: bearer(tokens.read) });
    expect(one.statusCode).toBe(200);
    expect(one.json().data.id).toBe(sourceId);
    // Its documents too (beyond the spec), whether or not the text is indexed yet.
    const documents = await t.app.inject({ method: "GET", url: `${SOURCES}/${sourceId}/documents`, headers: bearer(tokens.read) });
    expect(documents.statusCode).toBe(200);
    expect(documents.json()).toMatchObject({ data: expect.any(Array), next_cursor: null });
  });

  it("security: sources:read can neither create nor delete: 403 missing_ability naming sources:write, and nothing changes", async () => {
    const before = await countSources();
    const created = await create(tokens.read);
    expect(created.statusCode).toBe(403);
    expect(created.json()).toEqual({ error: { code: "missing_ability", message: expect.stringContaining("sources:write") } });
    const deleted = await t.app.inject({ method: "DELETE", url: `${SOURCES}/${sourceId}`, headers: bearer(tokens.read) });
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json().error.code).toBe("missing_ability");
    expect(await countSources()).toBe(before);
  });

  it("happy: sources:write implies reading (list and one) as well as creating and deleting", async () => {
    expect((await t.app.inject({ method: "GET", url: SOURCES, headers: bearer(tokens.write) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: `${SOURCES}/${sourceId}`, headers: bearer(tokens.write) })).statusCode).toBe(200);
    const own = (await create(tokens.both)).json().data.id as string;
    expect((await t.app.inject({ method: "DELETE", url: `${SOURCES}/${own}`, headers: bearer(tokens.write) })).statusCode).toBe(204);
  });

  it("security: a token with no known ability is 403 on every route", async () => {
    const none = await createToken([]);
    const routes = [
      ["GET", SOURCES],
      ["GET", `${SOURCES}/${sourceId}`],
      ["GET", `${SOURCES}/${sourceId}/documents`],
      ["GET", `${SOURCES}/${sourceId}/documents/1`],
      ["DELETE", `${SOURCES}/${sourceId}`],
    ] as const;
    for (const [method, url] of routes) {
      const response = await t.app.inject({ method, url, headers: bearer(none) });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.code).toBe("missing_ability");
    }
  });
});
