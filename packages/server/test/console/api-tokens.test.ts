import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

interface ApiToken {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  abilities: string[];
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

const SOURCES = "/api/v1/workspace/sources";

describeEachStore("the console's API tokens on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t));
  });
  afterAll(() => t.close());

  const create = (session: ConsoleSession, payload: unknown, headers: Record<string, string> = session.headers) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/tokens`, headers, payload: payload as Record<string, unknown> });
  const list = async (session: ConsoleSession): Promise<ApiToken[]> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/tokens`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const revoke = (session: ConsoleSession, id: string, headers: Record<string, string> = session.headers) =>
    t.app.inject({ method: "DELETE", url: `${CONSOLE}/tokens/${id}`, headers });
  const sources = (token: string) => t.app.inject({ method: "GET", url: SOURCES, headers: { authorization: `Bearer ${token}` } });

  it("happy: a created token is shown once, stored only as its hash, works on the Sources API, records its last use, and once revoked is refused", async () => {
    const created = await create(admin, { name: "  WordPress sync ", abilities: ["sources:write", "sources:write"] });
    expect(created.statusCode, created.body).toBe(201);
    const { token, ...shown } = created.json().data as ApiToken & { token: string };
    expect(token).toMatch(/^fdk_[A-Za-z0-9]{48}$/);
    expect(shown).toEqual({
      id: expect.stringMatching(/^tok_/),
      workspace_id: tenant.workspaceId,
      name: "WordPress sync",
      prefix: token.slice(0, 8),
      abilities: ["sources:write"],
      last_used_at: null,
      revoked_at: null,
      created_at: expect.any(String),
    });

    // Only the SHA-256 is stored; no list gives the plaintext back.
    const { rows } = await t.services.db.query<{ token_hash: string }>(`SELECT token_hash FROM api_tokens WHERE id = $1`, [shown.id]);
    expect(rows[0]!.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    const listed = await list(admin);
    expect(listed).toEqual([shown]);
    expect(JSON.stringify(listed)).not.toContain(token.slice(8));

    expect((await sources(token)).statusCode).toBe(200);
    const used = (await list(admin))[0]!;
    expect(used.last_used_at).not.toBeNull();

    const revoked = await revoke(admin, shown.id);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data.revoked_at).not.toBeNull();
    const refused = await sources(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe("invalid_token");

    // Revoking again keeps the first time.
    const again = await revoke(admin, shown.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.revoked_at).toBe(revoked.json().data.revoked_at);
    expect((await list(admin))[0]!.revoked_at).toBe(revoked.json().data.revoked_at);
  });

  it("happy: a read-only token reads sources and is refused writing them (missing_ability)", async () => {
    const created = await create(admin, { name: "Reader", abilities: ["sources:read"] });
    expect(created.statusCode, created.body).toBe(201);
    const { token } = created.json().data as { token: string };
    expect((await sources(token)).statusCode).toBe(200);
    const write = await t.app.inject({
      method: "POST",
      url: SOURCES,
      headers: { authorization: `Bearer ${token}` },
      payload: { agent_id: tenant.agentId, kind: "text", title: "T", content: "Hello" },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe("missing_ability");
  });

  it("security: an agent-role operator is refused every token route with 403 forbidden, and nothing is created or revoked", async () => {
    const before = await list(admin);
    const listing = await t.app.inject({ method: "GET", url: `${CONSOLE}/tokens`, headers: agentOperator.headers });
    expect(listing.statusCode).toBe(403);
    expect(listing.json().error.code).toBe("forbidden");
    const creating = await create(agentOperator, { name: "Mine", abilities: ["sources:write"] });
    expect(creating.statusCode).toBe(403);
    expect(creating.json().error.code).toBe("forbidden");
    const revoking = await revoke(agentOperator, before[0]!.id);
    expect(revoking.statusCode).toBe(403);
    expect(await list(admin)).toEqual(before);
  });

  it("security: another workspace's token is 404 token_not_found to revoke and stays live; lists are per workspace", async () => {
    const theirs = await create(outsider, { name: "Theirs", abilities: ["sources:write"] });
    const { id, token } = theirs.json().data as { id: string; token: string };
    const response = await revoke(admin, id);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("token_not_found");
    expect((await sources(token)).statusCode).toBe(200);
    expect((await list(admin)).map((listed) => listed.id)).not.toContain(id);
    expect((await list(outsider)).map((listed) => listed.id)).toEqual([id]);
  });

  it("security: a change without the console's Origin is 403 csrf_origin_mismatch; without a session 401", async () => {
    const noOrigin = await create(admin, { name: "X", abilities: ["sources:read"] }, { cookie: admin.headers.cookie });
    expect(noOrigin.statusCode).toBe(403);
    expect(noOrigin.json().error.code).toBe("csrf_origin_mismatch");
    const foreign = await revoke(admin, "tok_x", { cookie: admin.headers.cookie, origin: "https://evil.example" });
    expect(foreign.json().error.code).toBe("csrf_origin_mismatch");
    const anonymous = await t.app.inject({ method: "GET", url: `${CONSOLE}/tokens` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("unauthenticated");
  });

  it("error: a missing name, no ability, an unknown ability or a bad id is 422; an unknown id 404", async () => {
    for (const [payload, field] of [
      [{ abilities: ["sources:read"] }, "name"],
      [{ name: "   ", abilities: ["sources:read"] }, "name"],
      [{ name: "x".repeat(101), abilities: ["sources:read"] }, "name"],
      [{ name: "X", abilities: [] }, "abilities"],
      [{ name: "X", abilities: ["admin:all"] }, "abilities.0"],
      [{ name: "X" }, "abilities"],
      [{ name: "a\u0000b", abilities: ["sources:read"] }, "name"],
    ] as const) {
      const response = await create(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields).join(" "), JSON.stringify(payload)).toContain(field);
    }
    expect((await revoke(admin, "not%20an%20id")).statusCode).toBe(422);
    const unknown = await revoke(admin, "tok_unknown");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe("token_not_found");
  });
});
