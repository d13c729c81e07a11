import { afterAll, beforeAll, expect, it } from "vitest";
import { changeOperatorRole, removeOperator } from "../../src/console/operators/manage-operator.js";
import { publicOrigin } from "../../src/console/public-origin.js";
import { AppError } from "../../src/http/app-error.js";
import { startOperatorSession } from "../../src/console/start-operator-session.js";
import { CONSOLE, createSignedInOperator, sessionCookie, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

interface WorkspaceOperator {
  id: string;
  workspace_id: string;
  email: string;
  name: string;
  role: "admin" | "agent";
  password_set: boolean;
  away: boolean;
  created_at: string;
}

const PASSWORD = "a long enough passphrase";

describeEachStore("the console's operators on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t, { admin: "Ada", agentOperator: "Ana", outsider: "Eve" }));
  });
  afterAll(() => t.close());

  const call = (session: ConsoleSession | null, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `${CONSOLE}${url}`, ...(session ? { headers: session.headers } : {}), ...(payload ? { payload } : {}) });
  const list = async (session: ConsoleSession): Promise<WorkspaceOperator[]> => {
    const response = await call(session, "GET", "/operators");
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const me = (session: ConsoleSession) => call(session, "GET", "/me");
  const expectError = (response: { statusCode: number; json(): { error: { code: string } } }, status: number, code: string) => {
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
  };

  it("happy: any operator lists the workspace's operators, oldest first; never another workspace's", async () => {
    const listed = await list(agentOperator);
    expect(listed.map((operator) => operator.name)).toEqual(["Ada", "Ana"]);
    expect(listed[0]).toEqual({
      id: admin.operator.id,
      workspace_id: tenant.workspaceId,
      email: admin.operator.email,
      name: "Ada",
      role: "admin",
      password_set: false,
      away: false,
      created_at: expect.any(String),
    });
    expect((await list(outsider)).map((operator) => operator.name)).toEqual(["Eve"]);
  });

  it("happy: an admin invites an operator; the link sets their password once and they sign in with their role", async () => {
    const invited = await call(admin, "POST", "/operators", { email: " Nina@Acme.test ", name: "Nina", role: "agent" });
    expect(invited.statusCode, invited.body).toBe(201);
    const data = invited.json().data as WorkspaceOperator & { set_password_url: string; set_password_expires_at: string };
    expect(data).toMatchObject({ email: "Nina@Acme.test", name: "Nina", role: "agent", password_set: false, workspace_id: tenant.workspaceId });
    expect(data.set_password_url).toMatch(new RegExp(`^${t.services.config.publicUrl}/console/set-password#token=`));
    expect(new Date(data.set_password_expires_at).getTime() - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    const origin = { origin: publicOrigin(t.services.config) };
    const token = data.set_password_url.split("#token=")[1]!;
    const set = await t.app.inject({ method: "POST", url: `${CONSOLE}/password`, headers: origin, payload: { token, password: PASSWORD } });
    expect(set.statusCode, set.body).toBeLessThan(300);
    const again = await t.app.inject({ method: "POST", url: `${CONSOLE}/password`, headers: origin, payload: { token, password: PASSWORD } });
    expect(again.statusCode).toBe(400);
    const signIn = await t.app.inject({ method: "POST", url: `${CONSOLE}/session`, headers: origin, payload: { email: "nina@acme.test", password: PASSWORD } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().data).toMatchObject({ id: data.id, role: "agent", workspace_id: tenant.workspaceId });
    expect((await list(admin)).find((operator) => operator.id === data.id)!.password_set).toBe(true);

    const link = await call(admin, "POST", `/operators/${data.id}/password-link`);
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().data).toMatchObject({ operator_id: data.id, set_password_url: expect.stringContaining("#token=") });
  });

  // Another workspace's e-mail is invited like any (test/console/operator-invitations.test.ts).
  it("error: an e-mail of the workspace's own operators, an invalid e-mail, name or role is 422 naming the member", async () => {
    for (const [payload, field] of [
      [{ email: admin.operator.email.toUpperCase(), name: "Dup", role: "agent" }, "email"],
      [{ email: "not-an-email", name: "X", role: "agent" }, "email"],
      [{ email: "x@acme.test", name: " ", role: "agent" }, "name"],
      [{ email: "x@acme.test", name: "X", role: "owner" }, "role"],
    ] as const) {
      const response = await call(admin, "POST", "/operators", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().error.fields), JSON.stringify(payload)).toContain(field);
    }
  });

  it("security: an agent-role operator is refused every write with 403 forbidden, and nothing changes", async () => {
    const before = await list(admin);
    expectError(await call(agentOperator, "POST", "/operators", { email: "sneaky@acme.test", name: "S", role: "admin" }), 403, "forbidden");
    expectError(await call(agentOperator, "PATCH", `/operators/${agentOperator.operator.id}`, { role: "admin" }), 403, "forbidden");
    expectError(await call(agentOperator, "DELETE", `/operators/${admin.operator.id}`), 403, "forbidden");
    expectError(await call(agentOperator, "POST", `/operators/${admin.operator.id}/password-link`), 403, "forbidden");
    expectError(await call(agentOperator, "DELETE", `/operators/${admin.operator.id}/sessions`), 403, "forbidden");
    expect(await list(admin)).toEqual(before);
    expect((await me(admin)).statusCode).toBe(200);
  });

  it("security: another workspace's operator is 404 operator_not_found to every admin route; a change without Origin is 403", async () => {
    const theirs = outsider.operator.id;
    expectError(await call(admin, "PATCH", `/operators/${theirs}`, { role: "agent" }), 404, "operator_not_found");
    expectError(await call(admin, "DELETE", `/operators/${theirs}`), 404, "operator_not_found");
    expectError(await call(admin, "DELETE", `/operators/${theirs}/sessions`), 404, "operator_not_found");
    expectError(await call(admin, "POST", `/operators/${theirs}/password-link`), 404, "operator_not_found");
    expect((await me(outsider)).statusCode).toBe(200);
    const noOrigin = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/operators/${agentOperator.operator.id}`, headers: { cookie: admin.headers.cookie }, payload: { role: "admin" } });
    expectError(noOrigin, 403, "csrf_origin_mismatch");
    expectError(await call(null, "GET", "/operators"), 401, "unauthenticated");
  });

  it("happy: a role change applies to the operator's next request; the last admin can be neither demoted nor removed", async () => {
    const promoted = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Pia" });
    expectError(await call(promoted, "GET", "/tokens"), 403, "forbidden");
    const response = await call(admin, "PATCH", `/operators/${promoted.operator.id}`, { role: "admin" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id: promoted.operator.id, role: "admin" });
    expect((await call(promoted, "GET", "/tokens")).statusCode).toBe(200);
    // Back to agent: Ada is again the only admin.
    expect((await call(admin, "PATCH", `/operators/${promoted.operator.id}`, { role: "agent" })).statusCode).toBe(200);
    expectError(await call(promoted, "GET", "/tokens"), 403, "forbidden");

    expectError(await call(admin, "PATCH", `/operators/${admin.operator.id}`, { role: "agent" }), 409, "last_admin");
    expectError(await call(admin, "DELETE", `/operators/${admin.operator.id}`), 409, "last_admin");
    // Making an admin an admin again changes nothing and is allowed.
    expect((await call(admin, "PATCH", `/operators/${admin.operator.id}`, { role: "admin" })).statusCode).toBe(200);
    expect((await list(admin)).filter((operator) => operator.role === "admin").map((operator) => operator.id)).toEqual([admin.operator.id]);
  });

  const adminCount = async (workspaceId: string) =>
    (await t.services.db.query<{ count: string }>(`SELECT count(*)::text AS count FROM operators WHERE workspace_id = $1 AND role = 'admin'`, [workspaceId])).rows[0]!.count;

  it("security: two admins demoting each other at the same moment over HTTP leave one admin (the other is refused: 409 last_admin, or 403 when already demoted)", async () => {
    const workspace = await seedTenant(t.services);
    const first = await createSignedInOperator(t, { workspaceId: workspace.workspaceId, role: "admin" });
    const second = await createSignedInOperator(t, { workspaceId: workspace.workspaceId, role: "admin" });
    const [a, b] = await Promise.all([
      call(first, "PATCH", `/operators/${second.operator.id}`, { role: "agent" }),
      call(second, "PATCH", `/operators/${first.operator.id}`, { role: "agent" }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    expect(await adminCount(workspace.workspaceId)).toBe("1");
  });

  // On Postgres the two transactions run at once and meet on the admins' lock; on PGlite (one
  // connection) the second begins once the first has committed.
  it("security: two admins demoting or removing each other in concurrent transactions (both past the guard) leave one admin: the second waits for the lock and gets last_admin", async () => {
    for (let round = 0; round < 4; round += 1) {
      const workspace = await seedTenant(t.services);
      const first = await createSignedInOperator(t, { workspaceId: workspace.workspaceId, role: "admin" });
      const second = await createSignedInOperator(t, { workspaceId: workspace.workspaceId, role: "admin" });
      const outcomes = await Promise.allSettled([
        changeOperatorRole(t.services, first.operator, second.operator.id, "agent"),
        round % 2 === 0
          ? changeOperatorRole(t.services, second.operator, first.operator.id, "agent")
          : removeOperator(t.services, second.operator, first.operator.id),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === "rejected");
      expect(refused?.status === "rejected" && refused.reason instanceof AppError ? refused.reason.code : null).toBe("last_admin");
      expect(await adminCount(workspace.workspaceId)).toBe("1");
    }
  });

  it("happy: removing an operator signs them out at once and takes them off the list; an admin may remove themselves while another admin remains", async () => {
    const leaving = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Leo" });
    expect((await me(leaving)).statusCode).toBe(200);
    const removed = await call(admin, "DELETE", `/operators/${leaving.operator.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data).toMatchObject({ id: leaving.operator.id, removed: true });
    expectError(await me(leaving), 401, "unauthenticated");
    expect((await list(admin)).map((operator) => operator.id)).not.toContain(leaving.operator.id);
    expectError(await call(admin, "DELETE", `/operators/${leaving.operator.id}`), 404, "operator_not_found");

    const deputy = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Dee" });
    const self = await call(deputy, "DELETE", `/operators/${deputy.operator.id}`);
    expect(self.statusCode, self.body).toBe(200);
    expect(String(self.headers["set-cookie"])).toMatch(/frontdesk_console_session=;/);
    expectError(await me(deputy), 401, "unauthenticated");
  });

  it("happy: sign out everywhere ends every session of the operator (their own, or another's for an admin) and no one else's", async () => {
    const roaming = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Rui" });
    const laptop = await startOperatorSession(t.services, roaming.operator.id);
    const laptopSession = { ...roaming, headers: { ...roaming.headers, cookie: sessionCookie(laptop.secret) } };
    const own = await call(roaming, "DELETE", `/operators/${roaming.operator.id}/sessions`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data).toEqual({ operator_id: roaming.operator.id, sessions_ended: 2 });
    expect(String(own.headers["set-cookie"])).toMatch(/frontdesk_console_session=;/);
    expectError(await me(roaming), 401, "unauthenticated");
    expectError(await me(laptopSession), 401, "unauthenticated");

    const phone = await startOperatorSession(t.services, roaming.operator.id);
    const phoneSession = { ...roaming, headers: { ...roaming.headers, cookie: sessionCookie(phone.secret) } };
    expect((await me(phoneSession)).statusCode).toBe(200);
    const byAdmin = await call(admin, "DELETE", `/operators/${roaming.operator.id}/sessions`);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json().data).toEqual({ operator_id: roaming.operator.id, sessions_ended: 1 });
    expect(byAdmin.headers["set-cookie"]).toBeUndefined();
    expectError(await me(phoneSession), 401, "unauthenticated");
    expect((await me(admin)).statusCode).toBe(200);
    expect((await me(agentOperator)).statusCode).toBe(200);
  });

  it("error: a malformed id or role is 422", async () => {
    expect((await call(admin, "PATCH", "/operators/a%20b", { role: "agent" })).statusCode).toBe(422);
    expect((await call(admin, "PATCH", `/operators/${agentOperator.operator.id}`, { role: "root" })).statusCode).toBe(422);
    expect((await call(admin, "PATCH", `/operators/${agentOperator.operator.id}`, {})).statusCode).toBe(422);
  });
});
