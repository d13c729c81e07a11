import { afterEach, beforeAll, afterAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { PASSWORD_HASH_PARAMETERS } from "../../src/console/password-hash.js";
import { CONSOLE, sessionCookie } from "../support/console-session.js";
import { giveOperatorPassword } from "../support/operator-password.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";

const PUBLIC_ORIGIN = "http://console.frontdesk.test";
const PASSWORD = "correct horse battery";
const HOUR = 3600 * 1000;

describeEachStore("console sign-in, sessions and sign-out on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let addressCount = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_ORIGIN });
    tenant = await seedTenant(t.services);
  });
  afterEach(() => {
    t.clock.offsetMs = 0;
  });
  afterAll(() => t.close());

  /** Each test signs in from its own client address, so the per-IP budget of one does not spill into another. */
  const newAddress = () => `198.51.100.${(addressCount += 1)}`;

  /** An operator with PASSWORD, at the fixtures' scrypt cost (support/operator-password.ts): sign-ins check it for real, cheaply. */
  async function operatorWithPassword(role: "admin" | "agent" = "agent"): Promise<{ id: string; email: string }> {
    const email = `op${Math.random().toString(36).slice(2)}@acme.test`;
    const operator = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email, name: "Ana", role })) as { id: string };
    await giveOperatorPassword(t.services, operator.id, PASSWORD);
    return { id: operator.id, email };
  }

  const signIn = (body: unknown, options: { address?: string; origin?: string | null } = {}) =>
    t.app.inject({
      method: "POST",
      url: `${CONSOLE}/session`,
      remoteAddress: options.address ?? newAddress(),
      headers: options.origin === null ? {} : { origin: options.origin ?? PUBLIC_ORIGIN },
      payload: body as object,
    });

  const me = (secret: string) => t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie: sessionCookie(secret) } });

  async function signedIn(email: string): Promise<string> {
    const response = await signIn({ email, password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((candidate) => candidate.name === "frontdesk_console_session");
    if (!cookie) throw new Error("no session cookie");
    return cookie.value;
  }

  it("happy: sign-in sets an HttpOnly SameSite=Lax cookie on the console's path (not Secure over http) and /me answers the operator", async () => {
    const operator = await operatorWithPassword("admin");
    const response = await signIn({ email: operator.email.toUpperCase(), password: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { id: operator.id, workspace_id: tenant.workspaceId, name: "Ana", email: operator.email, role: "admin" } });
    const setCookie = String(response.headers["set-cookie"]);
    expect(setCookie).toMatch(/^frontdesk_console_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\/api\/v1\/console/);
    expect(setCookie).not.toMatch(/Secure/);
    const secret = setCookie.split(";")[0]!.split("=")[1]!;
    expect((await me(secret)).json().data.id).toBe(operator.id);
    // Only the hash is stored.
    const { rows } = await t.services.db.query<{ token_hash: string }>(`SELECT token_hash FROM operator_sessions WHERE operator_id = $1`, [operator.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(secret);
  });

  it("error: a wrong password, an unknown e-mail and an operator without a password get the same 401 invalid_credentials", async () => {
    const operator = await operatorWithPassword();
    const passwordless = (await runAdminCommand(adminOf(t.services), {
      command: "operator.create", workspaceId: tenant.workspaceId, email: "nopassword@acme.test", name: "New",
    })) as { email: string };
    const answers = [
      await signIn({ email: operator.email, password: "wrong password!" }),
      await signIn({ email: "nobody@acme.test", password: PASSWORD }),
      await signIn({ email: passwordless.email, password: PASSWORD }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ error: { code: "invalid_credentials", message: "The e-mail or the password is wrong." } });
      expect(answer.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("error: a body without e-mail or password is 422 with fields", async () => {
    const response = await signIn({ email: "" });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().error.fields).sort()).toEqual(["email", "password"]);
  });

  it("security: sign-in attempts are throttled per client IP (20 per 5 minutes, whatever the e-mail)", async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 18; attempt += 1) await t.services.limiter.consume("loginPerIp", address);
    for (const guess of ["guess1@acme.test", "guess2@acme.test"]) {
      expect((await signIn({ email: guess, password: PASSWORD }, { address })).statusCode).toBe(401);
    }
    const operator = await operatorWithPassword();
    const refused = await signIn({ email: operator.email, password: PASSWORD }, { address });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["x-ratelimit-limit"]).toBe("20");
    // Another address still signs in.
    expect((await signIn({ email: operator.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it("security: sign-in without Origin, or from another origin, is 403 csrf_origin_mismatch", async () => {
    const operator = await operatorWithPassword();
    for (const origin of [null, "https://evil.example", "http://console.frontdesk.test:8080"]) {
      const response = await signIn({ email: operator.email, password: PASSWORD }, { origin });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("csrf_origin_mismatch");
    }
  });

  it("happy: sign-out ends the session and clears the cookie; the old cookie is then 401", async () => {
    const operator = await operatorWithPassword();
    const secret = await signedIn(operator.email);
    const out = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/session`, headers: { cookie: sessionCookie(secret), origin: PUBLIC_ORIGIN } });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers["set-cookie"])).toMatch(/^frontdesk_console_session=;.*Max-Age=0/);
    const after = await me(secret);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe("unauthenticated");
  });

  it("security: sign-out without the public URL's Origin is refused and the session lives on", async () => {
    const operator = await operatorWithPassword();
    const secret = await signedIn(operator.email);
    for (const headers of [{ cookie: sessionCookie(secret) }, { cookie: sessionCookie(secret), origin: "https://evil.example" }]) {
      const response = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/session`, headers });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("csrf_origin_mismatch");
    }
    expect((await me(secret)).statusCode).toBe(200);
  });

  it("security: a session ends after 12 hours without a request; each request moves that deadline", async () => {
    const operator = await operatorWithPassword();
    const secret = await signedIn(operator.email);
    t.clock.offsetMs = 11 * HOUR;
    expect((await me(secret)).statusCode).toBe(200);
    t.clock.offsetMs = 22 * HOUR;
    expect((await me(secret)).statusCode).toBe(200);
    t.clock.offsetMs = 34 * HOUR + 1000;
    const idle = await me(secret);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().error.code).toBe("unauthenticated");
  });

  it("security: a session ends 30 days after sign-in even when used all along", async () => {
    const operator = await operatorWithPassword();
    const secret = await signedIn(operator.email);
    for (let hours = 11; hours < 30 * 24; hours += 11) {
      t.clock.offsetMs = hours * HOUR;
      expect((await me(secret)).statusCode).toBe(200);
    }
    t.clock.offsetMs = 30 * 24 * HOUR + 1000;
    expect((await me(secret)).statusCode).toBe(401);
  });

  it("security: changing the password ends every session of the operator (and only theirs)", async () => {
    const operator = await operatorWithPassword();
    const other = await operatorWithPassword();
    const first = await signedIn(operator.email);
    const second = await signedIn(operator.email);
    const others = await signedIn(other.email);
    await runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: operator.id, password: "another long passphrase" });
    // The command stores production's cost (the fixtures' passwords are cheaper), which the sign-in below verifies.
    const { N, r, p } = PASSWORD_HASH_PARAMETERS;
    expect(N).toBeGreaterThanOrEqual(2 ** 15);
    const { rows } = await t.services.db.query<{ password_hash: string }>(`SELECT password_hash FROM operators WHERE id = $1`, [operator.id]);
    expect(rows[0]!.password_hash.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(others)).statusCode).toBe(200);
    expect((await signIn({ email: operator.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await signIn({ email: operator.email, password: "another long passphrase" })).statusCode).toBe(200);
  });

  it("security: removing the operator ends their sessions", async () => {
    const operator = await operatorWithPassword();
    const secret = await signedIn(operator.email);
    const removed = (await runAdminCommand(adminOf(t.services), { command: "operator.remove", operatorId: operator.id })) as Record<string, unknown>;
    expect(removed).toMatchObject({ id: operator.id, removed: true });
    expect((await me(secret)).statusCode).toBe(401);
    expect((await signIn({ email: operator.email, password: PASSWORD })).statusCode).toBe(401);
  });
});

describeEachStore("the console's cookie and CORS under an https public URL on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  const ORIGIN = "https://support.example.com";

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: `${ORIGIN}/frontdesk/` });
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  it("security: the session cookie is Secure when FRONTDESK_PUBLIC_URL is https, and Origin is the URL's origin (no path)", async () => {
    const operator = (await runAdminCommand(adminOf(t.services), {
      command: "operator.create", workspaceId: tenant.workspaceId, email: "secure@acme.test", name: "Sec",
    })) as { id: string; set_password_url: string };
    expect(operator.set_password_url).toMatch(/^https:\/\/support\.example\.com\/frontdesk\/console\/set-password#token=[A-Za-z0-9_-]{43}$/);
    await giveOperatorPassword(t.services, operator.id, PASSWORD);
    const response = await t.app.inject({ method: "POST", url: `${CONSOLE}/session`, headers: { origin: ORIGIN }, payload: { email: "secure@acme.test", password: PASSWORD } });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers["set-cookie"])).toMatch(/; Secure/);
  });

  it("security: CORS admits only the public URL's origin, with credentials; a preflight from elsewhere gets no Allow headers", async () => {
    const allowed = await t.app.inject({
      method: "OPTIONS",
      url: `${CONSOLE}/session`,
      headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(allowed.headers["access-control-allow-credentials"]).toBe("true");
    expect(String(allowed.headers["access-control-allow-methods"])).toContain("POST");
    expect(String(allowed.headers["access-control-allow-headers"]).toLowerCase()).toContain("content-type");

    const foreign = await t.app.inject({
      method: "OPTIONS",
      url: `${CONSOLE}/me`,
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    expect(foreign.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(foreign.headers["access-control-allow-methods"]).toBeUndefined();

    const read = await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { origin: "https://evil.example" } });
    expect(read.statusCode).toBe(401);
    expect(read.headers["access-control-allow-origin"]).toBeUndefined();
    const own = await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { origin: ORIGIN } });
    expect(own.headers["access-control-allow-origin"]).toBe(ORIGIN);
  });
});
