import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import { identitySecretBoxOf } from "../../src/tenants/identity-secret-box.js";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { adminOf, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const INIT = "/api/v1/widget/init";

/** What a site's back end computes: lowercase hex HMAC-SHA256 of the user id under the agent's secret. */
const hashOf = (secret: string, userId: string) => createHmac("sha256", secret).update(userId, "utf8").digest("hex");

describeEachStore("verified visitor identity on %s", (kind) => {
  let t: TestApp;
  let admin: AdminContext;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  /** The agent under test (mode `optional` unless a test says otherwise) and its current secret. */
  let tenant: Tenant;
  let secret: string;

  const rotate = async (agentId: string) => ((await runAdminCommand(admin, { command: "agent.identity-secret", agentId })) as { secret: string }).secret;
  const setMode = (agentId: string, identityMode: "off" | "optional" | "required") =>
    runAdminCommand(admin, { command: "agent.update", agentId, identityMode });

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "100000" });
    admin = { ...adminOf(t.services), identitySecrets: () => identitySecretBoxOf(t.services.config) };
    cast = await seedConsoleCast(t);
    tenant = cast.tenant;
    secret = await rotate(tenant.agentId);
    await setMode(tenant.agentId, "optional");
  });
  afterAll(() => t.close());

  const init = (body: Record<string, unknown>, agentId = tenant.agentId) =>
    t.app.inject({ method: "POST", url: INIT, headers: { origin: SITE_ORIGIN }, payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/account`, ...body } });
  const initData = async (body: Record<string, unknown>, agentId = tenant.agentId) => {
    const response = await init(body, agentId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { conversation_id: string; visitor_id: string; anonymous_id: string; jwt: string; messages: { content: string }[] };
  };
  const visitorsOfUser = async (userId: string) =>
    Number((await t.services.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM visitors WHERE user_id = $1`, [userId])).rows[0]!.n);

  it("happy: the secret is printed once as {secret}, stored sealed, and never in an agent's answer", async () => {
    expect(secret).toMatch(/^fid_[A-Za-z0-9_-]{43}$/);
    const stored = (await t.services.db.query<{ sealed: string }>(`SELECT identity_secret_sealed AS sealed FROM agents WHERE id = $1`, [tenant.agentId])).rows[0]!.sealed;
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(4));
    const listed = await t.app.inject({ method: "GET", url: `${CONSOLE}/agents/${tenant.agentId}`, headers: cast.admin.headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(secret.slice(4));
    expect(listed.json().data.identity).toEqual({ mode: "optional", secret_created_at: expect.any(String) });
    const shown = await runAdminCommand(admin, { command: "agent.list", workspaceId: tenant.workspaceId });
    expect(JSON.stringify(shown)).not.toContain(secret.slice(4));
  });

  it("happy: a verified user resumes their latest conversation, with its messages, from another browser", async () => {
    const userId = "customer-1001";
    const laptop = await initData({ anon_id: "laptop-browser-1", user_id: userId, user_hash: hashOf(secret, userId), email: "mia@example.com", name: "Mia Park" });
    // The browser keeps its own anonymous id; the user's visitor is not that browser's.
    expect(laptop.anonymous_id).toBe("laptop-browser-1");
    await t.app.inject({ method: "POST", url: "/api/v1/widget/messages", headers: { authorization: `Bearer ${laptop.jwt}` }, payload: { message: "Where is my parcel?", page_url: `${SITE_ORIGIN}/account` } });
    const phone = await initData({ anon_id: "phone-browser-1", user_id: userId, user_hash: hashOf(secret, userId) });
    expect(phone.visitor_id).toBe(laptop.visitor_id);
    expect(phone.conversation_id).toBe(laptop.conversation_id);
    expect(phone.anonymous_id).toBe("phone-browser-1");
    expect(phone.messages.map((message) => message.content)).toContain("Where is my parcel?");
    // A third device without any anonymous id of its own.
    const tablet = await initData({ user_id: userId, user_hash: hashOf(secret, userId) });
    expect(tablet.conversation_id).toBe(laptop.conversation_id);
    expect(await visitorsOfUser(userId)).toBe(1);

    // The console shows the verified id with the name and e-mail sent with it (kept when a later init leaves them out).
    const detail = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${laptop.conversation_id}`, headers: cast.admin.headers });
    expect(detail.json().data.visitor.identity).toEqual({ user_id: userId, email: "mia@example.com", name: "Mia Park", verified_at: expect.any(String) });
    const list = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations`, headers: cast.admin.headers });
    const listed = (list.json().data as { id: string; visitor: { identity: unknown } }[]).find((item) => item.id === laptop.conversation_id);
    expect(listed?.visitor.identity).toMatchObject({ user_id: userId, name: "Mia Park" });
  });

  it("happy: concurrent inits of one user from several browsers share one visitor and one conversation", async () => {
    const userId = "customer-burst";
    const sessions = await Promise.all(
      Array.from({ length: 6 }, (_, index) => initData({ anon_id: `burst-browser-${index}`, user_id: userId, user_hash: hashOf(secret, userId) })),
    );
    expect(new Set(sessions.map((session) => session.visitor_id)).size).toBe(1);
    expect(await visitorsOfUser(userId)).toBe(1);
  });

  it("security: every forged identity is refused with 401 identity_invalid, and nothing is stored", async () => {
    const victim = "customer-victim";
    const attacker = "customer-attacker";
    const other = await seedTenant(t.services);
    const otherSecret = await rotate(other.agentId);
    const good = hashOf(secret, victim);
    const forgeries: Record<string, Record<string, unknown>> = {
      "a wrong hash": { user_id: victim, user_hash: hashOf("fid_guessed", victim) },
      "the hash in upper case": { user_id: victim, user_hash: good.toUpperCase() },
      "a truncated hash": { user_id: victim, user_hash: good.slice(0, 63) },
      "a hash one character longer": { user_id: victim, user_hash: `${good}0` },
      "another agent's secret": { user_id: victim, user_hash: hashOf(otherSecret, victim) },
      "another user's hash replayed for this id": { user_id: victim, user_hash: hashOf(secret, attacker) },
      "an empty hash": { user_id: victim, user_hash: "" },
      "a user id without its hash": { user_id: victim },
      "a hash without its user id": { user_hash: good },
      "the hash of the id with a trailing space": { user_id: `${victim} `, user_hash: good },
    };
    for (const [what, claim] of Object.entries(forgeries)) {
      const response = await init({ anon_id: "forging-browser", ...claim });
      expect(response.statusCode, what).toBe(401);
      expect(response.json().error.code, what).toBe("identity_invalid");
    }
    expect(await visitorsOfUser(victim)).toBe(0);
    // The genuine one still verifies.
    expect((await init({ user_id: victim, user_hash: good })).statusCode).toBe(200);
  });

  it("security: a sealed secret copied onto another agent's row opens nothing there (the agent's id is sealed with it)", async () => {
    const copy = await seedTenant(t.services);
    await rotate(copy.agentId);
    await setMode(copy.agentId, "optional");
    await t.services.db.query(`UPDATE agents SET identity_secret_sealed = (SELECT identity_secret_sealed FROM agents WHERE id = $1) WHERE id = $2`, [tenant.agentId, copy.agentId]);
    t.services.sessionCache.forgetAgent(copy.agentId);
    const response = await init({ user_id: "customer-copied", user_hash: hashOf(secret, "customer-copied") }, copy.agentId);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("identity_invalid");
  });

  it("security: a verified user's conversation is not reachable with the browser's anonymous id once signed out", async () => {
    const userId = "customer-shared-computer";
    const signedIn = await initData({ anon_id: "shared-computer-1", user_id: userId, user_hash: hashOf(secret, userId) });
    const signedOut = await initData({ anon_id: "shared-computer-1" });
    expect(signedOut.visitor_id).not.toBe(signedIn.visitor_id);
    expect(signedOut.conversation_id).not.toBe(signedIn.conversation_id);
  });

  it("error: a user id that is empty, over 256 characters or holds control characters is 422", async () => {
    const bad = ["", "u".repeat(257), "line\nbreak", "bell\u0007", "tab\tbed", "del\u007f", "c1\u0085"];
    for (const userId of bad) {
      const response = await init({ user_id: userId, user_hash: hashOf(secret, userId) });
      expect(response.statusCode, JSON.stringify(userId)).toBe(422);
      expect(response.json().error.fields).toHaveProperty("user_id");
    }
    // 256 characters, any script, spaces inside: fine.
    const longest = "ü".repeat(250) + " 12345";
    expect((await init({ user_id: longest, user_hash: hashOf(secret, longest) })).statusCode).toBe(200);
    expect((await init({ user_id: "a@b.c", user_hash: hashOf(secret, "a@b.c"), email: "not an e-mail" })).statusCode).toBe(422);
  });

  it("security: mode required refuses anonymous init with 401 identity_required and admits a verified user", async () => {
    const required = await seedTenant(t.services);
    // No secret yet: required (and optional) cannot be set.
    await expect(setMode(required.agentId, "required")).rejects.toMatchObject({ code: "validation_failed", fields: { identityMode: [expect.any(String)] } });
    const requiredSecret = await rotate(required.agentId);
    await setMode(required.agentId, "required");
    for (const body of [{}, { anon_id: "anonymous-browser" }, { new_conversation: true }]) {
      const response = await init(body, required.agentId);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("identity_required");
    }
    const forged = await init({ user_id: "u-1", user_hash: hashOf(secret, "u-1") }, required.agentId);
    expect(forged.json().error.code).toBe("identity_invalid");
    expect((await init({ user_id: "u-1", user_hash: hashOf(requiredSecret, "u-1") }, required.agentId)).statusCode).toBe(200);
  });

  it("happy: mode off ignores the identity fields: the visitor stays anonymous whatever the hash", async () => {
    const off = await seedTenant(t.services);
    const data = await initData({ anon_id: "off-browser-1", user_id: "customer-off", user_hash: "not-a-hash" }, off.agentId);
    expect(data.anonymous_id).toBe("off-browser-1");
    expect(await visitorsOfUser("customer-off")).toBe(0);
  });

  it("security: rotating the secret revokes every hash made with the old one; the user keeps their conversation", async () => {
    const rotating = await seedTenant(t.services);
    const before = await rotate(rotating.agentId);
    await setMode(rotating.agentId, "optional");
    const userId = "customer-rotation";
    const first = await initData({ user_id: userId, user_hash: hashOf(before, userId) }, rotating.agentId);
    const after = await rotate(rotating.agentId);
    expect(after).not.toBe(before);
    const stale = await init({ user_id: userId, user_hash: hashOf(before, userId) }, rotating.agentId);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().error.code).toBe("identity_invalid");
    const again = await initData({ user_id: userId, user_hash: hashOf(after, userId) }, rotating.agentId);
    expect(again.conversation_id).toBe(first.conversation_id);
  });

  it("happy: the console rotates the secret (admins only) and sets the mode; the old hash stops at once", async () => {
    const userId = "customer-console-rotation";
    const old = hashOf(secret, userId);
    expect((await init({ user_id: userId, user_hash: old })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: "POST", url: `${CONSOLE}/agents/${tenant.agentId}/identity-secret`, headers: cast.agentOperator.headers });
    expect(refused.statusCode).toBe(403);
    const foreign = await t.app.inject({ method: "POST", url: `${CONSOLE}/agents/${cast.other.agentId}/identity-secret`, headers: cast.admin.headers });
    expect(foreign.statusCode).toBe(404);
    const rotated = await t.app.inject({ method: "POST", url: `${CONSOLE}/agents/${tenant.agentId}/identity-secret`, headers: cast.admin.headers });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    secret = rotated.json().data.secret as string;
    expect((await init({ user_id: userId, user_hash: old })).json().error.code).toBe("identity_invalid");
    expect((await init({ user_id: userId, user_hash: hashOf(secret, userId) })).statusCode).toBe(200);

    const patched = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${tenant.agentId}`, headers: cast.admin.headers, payload: { identity_mode: "required" } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data.identity.mode).toBe("required");
    expect((await init({})).json().error.code).toBe("identity_required");
    const invalid = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/agents/${tenant.agentId}`, headers: cast.admin.headers, payload: { identity_mode: "sometimes" } });
    expect(invalid.statusCode).toBe(422);
    await setMode(tenant.agentId, "optional");
  });

  it("happy: export and erasure by user id (console and CLI), scoped to the workspace", async () => {
    const userId = "customer-erase-me";
    const session = await initData({ user_id: userId, user_hash: hashOf(secret, userId), email: "erase@example.com" });
    const query = `agent_id=${tenant.agentId}&user_id=${encodeURIComponent(userId)}`;
    const exported = await t.app.inject({ method: "GET", url: `${CONSOLE}/visitors/by-user/export?${query}`, headers: cast.admin.headers });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().data.visitor).toMatchObject({ id: session.visitor_id, identity: { user_id: userId, email: "erase@example.com" } });
    const cliExport = (await runAdminCommand(admin, { command: "visitor.export", workspaceId: tenant.workspaceId, agentId: tenant.agentId, userId })) as { visitor: { id: string } };
    expect(cliExport.visitor.id).toBe(session.visitor_id);
    // Another workspace's admin names the same agent and user: nothing.
    const outsider = await t.app.inject({ method: "GET", url: `${CONSOLE}/visitors/by-user/export?${query}`, headers: cast.outsider.headers });
    expect(outsider.statusCode).toBe(404);
    await expect(runAdminCommand(admin, { command: "visitor.export", workspaceId: cast.other.workspaceId, agentId: tenant.agentId, userId })).rejects.toMatchObject({ code: "visitor_not_found" });
    const badUser = await t.app.inject({ method: "GET", url: `${CONSOLE}/visitors/by-user/export?agent_id=${tenant.agentId}&user_id=${"x".repeat(300)}`, headers: cast.admin.headers });
    expect(badUser.statusCode).toBe(422);

    const erased = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/visitors/by-user?${query}`, headers: cast.admin.headers });
    expect(erased.statusCode, erased.body).toBe(204);
    expect(await visitorsOfUser(userId)).toBe(0);
    expect((await t.app.inject({ method: "DELETE", url: `${CONSOLE}/visitors/by-user?${query}`, headers: cast.admin.headers })).statusCode).toBe(404);

    const cliUser = "customer-cli-erase";
    await initData({ user_id: cliUser, user_hash: hashOf(secret, cliUser) });
    const cliErased = (await runAdminCommand(admin, { command: "visitor.erase", workspaceId: tenant.workspaceId, agentId: tenant.agentId, userId: cliUser })) as { erased: boolean };
    expect(cliErased.erased).toBe(true);
    expect(await visitorsOfUser(cliUser)).toBe(0);
    await expect(runAdminCommand(admin, { command: "visitor.erase", workspaceId: tenant.workspaceId, agentId: tenant.agentId })).rejects.toMatchObject({ code: "validation_failed" });
  });
});
