import { randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { PENDING_COOKIE_NAME } from "../../src/console/two-factor/pending-sign-in.js";
import { totpCodeAt } from "../../src/console/two-factor/totp.js";
import { CONSOLE, createSignedInOperator, sessionCookie, type ConsoleSession } from "../support/console-session.js";
import { giveOperatorPassword } from "../support/operator-password.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";

const PUBLIC_ORIGIN = "http://console.frontdesk.test";
const PASSWORD = "correct horse battery";
const SECOND = 1000;

describeEachStore("two-factor sign-in with an authenticator (TOTP) on %s", (kind) => {
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

  const newAddress = () => `192.0.2.${(addressCount += 1) % 250}`;
  const cookieOf = (response: LightMyRequestResponse, name: string) => response.cookies.find((cookie) => cookie.name === name);
  const post = (url: string, payload: object | undefined, cookie: string, address = "198.51.100.200") =>
    t.app.inject({ method: "POST", url: `${CONSOLE}${url}`, remoteAddress: address, headers: { origin: PUBLIC_ORIGIN, cookie }, ...(payload ? { payload } : {}) });
  const signIn = (email: string, address: string) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/session`, remoteAddress: address, headers: { origin: PUBLIC_ORIGIN }, payload: { email, password: PASSWORD } });
  const codeNow = (secret: string) => totpCodeAt(secret, t.services.now());

  async function operator(role: "admin" | "agent" = "agent", workspaceId = tenant.workspaceId): Promise<ConsoleSession> {
    const session = await createSignedInOperator(t, { workspaceId, role, email: `op${randomUUID().slice(0, 8)}@acme.test` });
    await giveOperatorPassword(t.services, session.operator.id, PASSWORD);
    // giveOperatorPassword ends the sessions: start one again, as a sign-in would.
    const signedIn = await signIn(session.operator.email, newAddress());
    const secret = cookieOf(signedIn, "frontdesk_console_session")!.value;
    return { ...session, secret, headers: { cookie: sessionCookie(secret), origin: PUBLIC_ORIGIN } };
  }

  /** Enrols an authenticator for the signed-in operator; its secret and recovery codes. */
  async function enrolled(session: ConsoleSession): Promise<{ secret: string; recoveryCodes: string[] }> {
    const started = await post("/me/two-factor/enrolment", undefined, session.headers.cookie);
    expect(started.statusCode).toBe(200);
    const { secret } = started.json().data as { secret: string };
    const confirmed = await post("/me/two-factor/enrolment/confirm", { code: await codeNow(secret) }, session.headers.cookie);
    expect(confirmed.statusCode).toBe(200);
    return { secret, recoveryCodes: confirmed.json().data.recovery_codes };
  }

  /** The password step of a sign-in that has a second step: its pending cookie. */
  async function pendingCookie(email: string, address: string, step = "totp"): Promise<string> {
    const response = await signIn(email, address);
    expect(response.statusCode).toBe(202);
    expect(response.json().data.second_step).toBe(step);
    expect(cookieOf(response, "frontdesk_console_session")).toBeUndefined();
    return `${PENDING_COOKIE_NAME}=${cookieOf(response, PENDING_COOKIE_NAME)!.value}`;
  }

  it("happy: enrolment shows the secret as text, otpauth:// URI and QR code, keeps it sealed, and a code confirms it with ten recovery codes stored hashed", async () => {
    const session = await operator();
    const started = await post("/me/two-factor/enrolment", undefined, session.headers.cookie);
    expect(started.statusCode).toBe(200);
    const { secret, otpauth_uri, qr_code } = started.json().data as { secret: string; otpauth_uri: string; qr_code: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("Frontdesk");
    expect(decodeURIComponent(uri.pathname)).toContain(session.operator.email);
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(",")[1]!, "base64").toString()).toContain("<svg");
    const stored = async () =>
      (await t.services.db.query<Record<string, string | null>>(`SELECT totp_secret_sealed, totp_pending_secret_sealed FROM operators WHERE id = $1`, [session.operator.id])).rows[0]!;
    expect((await stored()).totp_pending_secret_sealed).not.toContain(secret);
    expect((await stored()).totp_secret_sealed).toBeNull();

    const wrong = await post("/me/two-factor/enrolment/confirm", { code: (Number(await codeNow(secret)) + 1).toString().padStart(6, "0").slice(-6) }, session.headers.cookie);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe("invalid_code");
    const confirmed = await post("/me/two-factor/enrolment/confirm", { code: await codeNow(secret) }, session.headers.cookie);
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const { rows } = await t.services.db.query<{ code_hash: string }>(`SELECT code_hash FROM operator_recovery_codes WHERE operator_id = $1`, [session.operator.id]);
    expect(rows).toHaveLength(10);
    for (const row of rows) for (const code of codes) expect(row.code_hash).not.toContain(code.replace(/-/g, ""));
    expect((await stored()).totp_secret_sealed).not.toContain(secret);
    const status = await t.app.inject({ method: "GET", url: `${CONSOLE}/me/two-factor`, headers: session.headers });
    expect(status.json().data).toMatchObject({ enabled: true, recovery_codes_left: 10, required_by_workspace: false });
  });

  it("happy: sign-in asks for the code after the password (a pending cookie, no session), and the code signs in", async () => {
    const session = await operator();
    const { secret } = await enrolled(session);
    const address = newAddress();
    const pending = await pendingCookie(session.operator.email, address);
    // The pending cookie is no session.
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie: pending.replace(PENDING_COOKIE_NAME, "frontdesk_console_session") } })).statusCode).toBe(401);
    t.clock.offsetMs += 31 * SECOND;
    const done = await post("/session/second-factor", { code: await codeNow(secret) }, pending, address);
    expect(done.statusCode).toBe(200);
    expect(done.json().data.id).toBe(session.operator.id);
    const cookie = cookieOf(done, "frontdesk_console_session")!;
    expect(cookieOf(done, PENDING_COOKIE_NAME)?.value).toBe("");
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie: sessionCookie(cookie.value) } })).statusCode).toBe(200);
  });

  it("security: a code is accepted once: the same code again within its window is refused, the next step's code works", async () => {
    const session = await operator();
    const { secret } = await enrolled(session);
    t.clock.offsetMs += 60 * SECOND;
    const code = await codeNow(secret);
    const address = newAddress();
    expect((await post("/session/second-factor", { code }, await pendingCookie(session.operator.email, address), address)).statusCode).toBe(200);
    const replay = await post("/session/second-factor", { code }, await pendingCookie(session.operator.email, address), address);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe("invalid_code");
    // An earlier step's code (still inside the tolerance) is refused too.
    t.clock.offsetMs += 30 * SECOND;
    const earlier = await post("/session/second-factor", { code }, await pendingCookie(session.operator.email, address), address);
    expect(earlier.statusCode).toBe(401);
    expect((await post("/session/second-factor", { code: await codeNow(secret) }, await pendingCookie(session.operator.email, address), address)).statusCode).toBe(200);
  });

  it("security: a recovery code signs in once (any case, with or without dashes), then never again", async () => {
    const session = await operator();
    const { recoveryCodes } = await enrolled(session);
    const address = newAddress();
    const typed = recoveryCodes[3]!.toLowerCase().replace(/-/g, " ");
    expect((await post("/session/second-factor", { recovery_code: typed }, await pendingCookie(session.operator.email, address), address)).statusCode).toBe(200);
    const again = await post("/session/second-factor", { recovery_code: recoveryCodes[3] }, await pendingCookie(session.operator.email, address), address);
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe("invalid_code");
    const other = await operator();
    const othersCodes = (await enrolled(other)).recoveryCodes;
    expect((await post("/session/second-factor", { recovery_code: othersCodes[0] }, await pendingCookie(session.operator.email, address), address)).statusCode).toBe(401);
    const status = await t.app.inject({ method: "GET", url: `${CONSOLE}/me/two-factor`, headers: session.headers });
    expect(status.json().data.recovery_codes_left).toBe(9);
  });

  it("security: the pending sign-in ends after 5 minutes; a missing or forged pending cookie is 401 sign_in_expired", async () => {
    const session = await operator();
    const { secret } = await enrolled(session);
    const address = newAddress();
    const pending = await pendingCookie(session.operator.email, address);
    t.clock.offsetMs += 5 * 60 * SECOND + 1;
    for (const cookie of [pending, "", `${PENDING_COOKIE_NAME}=v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, `${PENDING_COOKIE_NAME}=garbage`]) {
      const response = await post("/session/second-factor", { code: await codeNow(secret) }, cookie, address);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("sign_in_expired");
      expect(response.headers["set-cookie"] ?? "").not.toContain("frontdesk_console_session=");
    }
  });

  it("security: wrong codes count as wrong passwords: five free, then 429 with Retry-After, even for the right code", async () => {
    const session = await operator();
    const { secret } = await enrolled(session);
    t.clock.offsetMs += 30 * SECOND;
    const address = newAddress();
    const pending = await pendingCookie(session.operator.email, address);
    const right = await codeNow(secret);
    const wrong = right === "000000" ? "000001" : "000000";
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await post("/session/second-factor", { code: wrong }, pending, address)).statusCode).toBe(401);
    const held = await post("/session/second-factor", { code: right }, pending, address);
    expect(held.statusCode).toBe(429);
    expect(held.headers["retry-after"]).toBe("1");
    t.clock.offsetMs += SECOND;
    expect((await post("/session/second-factor", { code: await codeNow(secret) }, pending, address)).statusCode).toBe(200);
  });

  it("happy: a workspace that requires two-factor makes an operator without it enrol at the next sign-in, with a QR code and recovery codes", async () => {
    const workspace = await seedTenant(t.services);
    const admin = await operator("admin", workspace.workspaceId);
    const agent = await operator("agent", workspace.workspaceId);
    const forbidden = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/workspace/sign-in`, headers: agent.headers, payload: { require_two_factor: true } });
    expect(forbidden.statusCode).toBe(403);
    const required = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/workspace/sign-in`, headers: admin.headers, payload: { require_two_factor: true } });
    expect(required.json()).toEqual({ data: { require_two_factor: true } });

    const address = newAddress();
    const pending = await pendingCookie(agent.operator.email, address, "enrol_totp");
    // No code can be typed before enrolling.
    expect((await post("/session/second-factor", { code: "123456" }, pending, address)).json().error.code).toBe("two_factor_required");
    const started = await post("/session/totp-enrolment", undefined, pending, address);
    expect(started.statusCode).toBe(200);
    const { secret, qr_code } = started.json().data as { secret: string; qr_code: string };
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const done = await post("/session/totp-enrolment/confirm", { code: await codeNow(secret) }, pending, address);
    expect(done.statusCode).toBe(200);
    expect(done.json().data.id).toBe(agent.operator.id);
    expect(done.json().recovery_codes).toHaveLength(10);
    expect(cookieOf(done, "frontdesk_console_session")).toBeDefined();
    // From now on the operator's sign-in asks for a code, and they cannot turn it off.
    await pendingCookie(agent.operator.email, address, "totp");
    t.clock.offsetMs += 30 * SECOND;
    const off = await post("/me/two-factor/disable", { code: await codeNow(secret) }, agent.headers.cookie, address);
    expect(off.statusCode).toBe(409);
    expect(off.json().error.code).toBe("two_factor_required");
  });

  it("happy: an operator turns two-factor off with a code; sign-in no longer asks", async () => {
    const session = await operator();
    const { secret } = await enrolled(session);
    t.clock.offsetMs += 30 * SECOND;
    expect((await post("/me/two-factor/disable", { code: await codeNow(secret) }, session.headers.cookie)).statusCode).toBe(204);
    expect((await signIn(session.operator.email, newAddress())).statusCode).toBe(200);
  });

  it("happy: `admin operator reset-two-factor` removes a lost authenticator: the operator signs in with the password alone", async () => {
    const session = await operator();
    await enrolled(session);
    expect(await runAdminCommand(adminOf(t.services), { command: "operator.reset-two-factor", operatorId: session.operator.id })).toEqual({ operator_id: session.operator.id, two_factor: "off" });
    expect((await signIn(session.operator.email, newAddress())).statusCode).toBe(200);
    const { rows } = await t.services.db.query(`SELECT 1 FROM operator_recovery_codes WHERE operator_id = $1`, [session.operator.id]);
    expect(rows).toHaveLength(0);
    await expect(runAdminCommand(adminOf(t.services), { command: "operator.reset-two-factor", operatorId: "op_missing" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("error: a code that is not six digits, both a code and a recovery code, or neither, is 422 with fields", async () => {
    const session = await operator();
    await enrolled(session);
    const address = newAddress();
    const pending = await pendingCookie(session.operator.email, address);
    for (const body of [{ code: "12345" }, { code: "abcdef" }, { code: "1234567" }, { code: "123456", recovery_code: "AAAA-BBBB-CCCC" }, {}, { recovery_code: "x".repeat(65) }]) {
      const response = await post("/session/second-factor", body, pending, address);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(response.json().error.fields).toBeDefined();
    }
  });
});
