import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { ssoPostLogoutRedirectUri, ssoRedirectUri } from "../../src/console/sso/sso-settings.js";
import { capturedLogger, type LogLine } from "../support/captured-log.js";
import { CONSOLE, createSignedInOperator, sessionCookie, type ConsoleSession } from "../support/console-session.js";
import { startHandRolledProvider, startOidcProvider, type HandRolledProvider, type LoopbackOpenIdProvider } from "../support/openid-providers.js";
import { giveOperatorPassword } from "../support/operator-password.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { seedTenant } from "../support/seed.js";

const PUBLIC_URL = "http://console.frontdesk.test";
const PASSWORD = "correct horse battery";

/** Cookies of one browser at the provider (name → value; the provider's paths are not told apart). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header = () => [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** Follows the provider's redirects like a browser, until it sends the browser back to the console: that URL. */
async function throughProvider(authorizationUrl: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get("location");
    if (!location) throw new Error(`the provider stopped at ${url} with ${response.status}: ${await response.text()}`);
    const next = new URL(location, url);
    if (next.origin === PUBLIC_URL) return next;
    url = next.toString();
  }
  throw new Error("too many redirects at the provider");
}

describeEachStore("operators' single sign-on with OpenID Connect on %s", (kind) => {
  let t: TestApp;
  let log: LogLine[];
  let provider: LoopbackOpenIdProvider;
  let rogue: HandRolledProvider;
  let admin: ConsoleSession;
  let workspaceId: string;

  beforeAll(async () => {
    const captured = capturedLogger();
    log = captured.lines;
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL, FRONTDESK_SSO_ALLOW_PRIVATE_NETWORKS: "true" }, { requestLogger: captured.logger });
    provider = await startOidcProvider({ redirectUri: ssoRedirectUri(PUBLIC_URL), postLogoutRedirectUri: ssoPostLogoutRedirectUri(PUBLIC_URL) });
    rogue = await startHandRolledProvider();
    workspaceId = (await seedTenant(t.services)).workspaceId;
    admin = await createSignedInOperator(t, { workspaceId, role: "admin", email: "admin@acme.test" });
  });
  afterEach(() => {
    t.clock.offsetMs = 0;
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
    await rogue.close();
  });

  const putSso = (body: object, session: ConsoleSession = admin) =>
    t.app.inject({ method: "PUT", url: `${CONSOLE}/workspace/sso`, headers: session.headers, payload: body });
  const realProvider = (overrides: object = {}) => ({
    display_name: "Acme ID",
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    allowed_domains: ["acme.test"],
    default_role: "agent",
    password_sign_in: true,
    ...overrides,
  });
  const start = (email: string) => t.app.inject({ method: "POST", url: `${CONSOLE}/sso/start`, headers: { origin: PUBLIC_URL }, payload: { email } });
  const callback = (url: URL, ssoCookie: string | undefined) =>
    t.app.inject({ method: "GET", url: `${url.pathname}${url.search}`, headers: ssoCookie ? { cookie: `frontdesk_console_sso=${ssoCookie}` } : {} });
  const ssoCookieOf = (response: Awaited<ReturnType<typeof start>>) => response.cookies.find((cookie) => cookie.name === "frontdesk_console_sso")?.value;

  it("happy: an admin sets the provider (secret sealed, never returned); an operator of an allowed domain signs in through the loopback provider and is created with the default role", async () => {
    const saved = await putSso(realProvider());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ display_name: "Acme ID", issuer: provider.issuer, has_client_secret: true, allowed_domains: ["acme.test"], redirect_uri: `${PUBLIC_URL}/api/v1/console/sso/callback` });
    expect(saved.body).not.toContain(provider.clientSecret);
    const { rows } = await t.services.db.query<{ client_secret_sealed: string }>(`SELECT client_secret_sealed FROM workspace_sso WHERE workspace_id = $1`, [workspaceId]);
    expect(rows[0]!.client_secret_sealed).not.toContain(provider.clientSecret);

    const discovered = await t.app.inject({ method: "GET", url: `${CONSOLE}/sso/discover?email=${encodeURIComponent("new.person@ACME.test")}` });
    expect(discovered.json()).toEqual({ data: { provider: "Acme ID" } });
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/sso/discover?email=someone@elsewhere.test` })).json()).toEqual({ data: { provider: null } });

    const started = await start("new.person@acme.test");
    expect(started.statusCode, started.body).toBe(200);
    const authorization = new URL(started.json().data.authorization_url);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    for (const parameter of ["state", "nonce", "code_challenge"]) expect(authorization.searchParams.get(parameter)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const back = await throughProvider(authorization.toString());
    const signedIn = await callback(back, ssoCookieOf(started));
    expect(signedIn.statusCode).toBe(302);
    expect(signedIn.headers.location, JSON.stringify(log.slice(-3))).toBe(`${PUBLIC_URL}/console/inbox`);
    const session = signedIn.cookies.find((cookie) => cookie.name === "frontdesk_console_session")!;
    const me = await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie: sessionCookie(session.value) } });
    expect(me.json().data).toMatchObject({ email: "new.person@acme.test", name: "Person new.person", role: "agent", workspace_id: workspaceId });

    // Single sign-out: the console session ends, and the browser is sent to the provider's end_session_endpoint.
    const out = await t.app.inject({ method: "POST", url: `${CONSOLE}/session/sign-out`, headers: { cookie: sessionCookie(session.value), origin: PUBLIC_URL } });
    expect(out.statusCode).toBe(200);
    const endSession = new URL(out.json().data.end_session_url);
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${PUBLIC_URL}/console/`);
    expect(endSession.searchParams.get("client_id")).toBe(provider.clientId);
    expect(endSession.searchParams.get("id_token_hint")).toMatch(/^ey/);
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie: sessionCookie(session.value) } })).statusCode).toBe(401);
    // The provider accepts the hint: its sign-out page answers.
    expect((await fetch(endSession, { redirect: "manual" })).status).toBeLessThan(400);

    // A second sign-in finds the same operator.
    const again = await start("new.person@acme.test");
    const secondBack = await throughProvider(again.json().data.authorization_url);
    expect((await callback(secondBack, ssoCookieOf(again))).statusCode).toBe(302);
    const { rows: operators } = await t.services.db.query(`SELECT id FROM operators WHERE workspace_id = $1 AND email = 'new.person@acme.test'`, [workspaceId]);
    expect(operators).toHaveLength(1);
  });

  it("security: an e-mail domain outside the allowed list gets no account, and the reason is logged", async () => {
    expect((await putSso(realProvider({ allowed_domains: ["acme.test"] }))).statusCode).toBe(200);
    // The provider vouches for an address of another domain (its account is whatever login_hint named).
    const started = await start("person@acme.test");
    const authorization = new URL(started.json().data.authorization_url);
    authorization.searchParams.set("login_hint", "intruder@evil.test");
    const back = await throughProvider(authorization.toString());
    const refused = await callback(back, ssoCookieOf(started));
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toBe(`${PUBLIC_URL}/console/?sso_error=sso_domain_not_allowed`);
    expect(refused.cookies.find((cookie) => cookie.name === "frontdesk_console_session")).toBeUndefined();
    const { rows } = await t.services.db.query(`SELECT 1 FROM operators WHERE email = 'intruder@evil.test'`);
    expect(rows).toHaveLength(0);
    expect(log.some((line) => line.msg.startsWith("single sign-on refused") && String(line.reason).includes("evil.test is not among the workspace's allowed domains"))).toBe(true);
  });

  it("security: a wrong state, nonce, issuer, audience or signature, and an expired ID token, are each refused with a logged reason", async () => {
    const saved = await putSso({ display_name: "Rogue", issuer: rogue.issuer, client_id: rogue.clientId, client_secret: "rogue-secret", allowed_domains: ["acme.test"] });
    expect(saved.statusCode, saved.body).toBe(200);
    const now = () => Math.floor(t.services.now().getTime() / 1000);
    const good = (nonce: string) => ({ iss: rogue.issuer, aud: rogue.clientId, sub: "user-1", email: "ok@acme.test", email_verified: true, nonce, iat: now(), exp: now() + 300 });
    const cases: { name: string; reason: RegExp; token?: (nonce: string) => { claims: Record<string, unknown>; foreignKey?: boolean }; state?: string }[] = [
      { name: "wrong state", state: "not-the-state-that-was-sent", reason: /state/i },
      { name: "wrong nonce", token: (nonce) => ({ claims: { ...good(nonce), nonce: "another-nonce" } }), reason: /nonce/i },
      { name: "wrong issuer", token: (nonce) => ({ claims: { ...good(nonce), iss: "https://impostor.example" } }), reason: /iss/i },
      { name: "wrong audience", token: (nonce) => ({ claims: { ...good(nonce), aud: "someone-else" } }), reason: /aud/i },
      { name: "wrong signature", token: (nonce) => ({ claims: good(nonce), foreignKey: true }), reason: /signature|key/i },
      { name: "expired", token: (nonce) => ({ claims: { ...good(nonce), iat: now() - 3600, exp: now() - 1800 } }), reason: /exp|timestamp|expired/i },
    ];
    for (const broken of cases) {
      const started = await start("ok@acme.test");
      const authorization = new URL(started.json().data.authorization_url);
      const nonce = authorization.searchParams.get("nonce")!;
      rogue.nextToken = broken.token ? broken.token(nonce) : { claims: good(nonce) };
      const before = log.length;
      const back = new URL(`${PUBLIC_URL}/api/v1/console/sso/callback`);
      back.searchParams.set("code", "a-code");
      back.searchParams.set("state", broken.state ?? authorization.searchParams.get("state")!);
      const refused = await callback(back, ssoCookieOf(started));
      expect(refused.statusCode, broken.name).toBe(302);
      expect(refused.headers.location, broken.name).toBe(`${PUBLIC_URL}/console/?sso_error=sso_failed`);
      expect(refused.cookies.find((cookie) => cookie.name === "frontdesk_console_session"), broken.name).toBeUndefined();
      const logged = log.slice(before).find((line) => line.msg.startsWith("single sign-on refused"));
      expect(logged?.level, broken.name).toBe(40);
      expect(String(logged?.reason), broken.name).toMatch(broken.reason);
    }
    // The same hand-rolled provider with nothing broken signs in: the refusals above are the breakage's.
    const started = await start("ok@acme.test");
    const authorization = new URL(started.json().data.authorization_url);
    rogue.nextToken = { claims: good(authorization.searchParams.get("nonce")!) };
    const back = new URL(`${PUBLIC_URL}/api/v1/console/sso/callback?code=a-code&state=${authorization.searchParams.get("state")}`);
    const accepted = await callback(back, ssoCookieOf(started));
    expect(accepted.headers.location).toBe(`${PUBLIC_URL}/console/inbox`);
    // Without the state cookie (another browser, or after 10 minutes) nothing is signed in either.
    const expired = await callback(back, undefined);
    expect(expired.headers.location).toBe(`${PUBLIC_URL}/console/?sso_error=sso_expired`);
  });

  it("happy: password sign-in can be switched off for the workspace: a right password then gets the same 401 as a wrong one", async () => {
    const operator = await createSignedInOperator(t, { workspaceId, role: "agent", email: `pw${Date.now()}@acme.test` });
    await giveOperatorPassword(t.services, operator.operator.id, PASSWORD);
    const signIn = () =>
      t.app.inject({ method: "POST", url: `${CONSOLE}/session`, remoteAddress: "198.51.100.77", headers: { origin: PUBLIC_URL }, payload: { email: operator.operator.email, password: PASSWORD } });
    expect((await putSso(realProvider({ password_sign_in: true }))).statusCode).toBe(200);
    expect((await signIn()).statusCode).toBe(200);
    expect((await putSso(realProvider({ password_sign_in: false, client_secret: undefined }))).json().data).toMatchObject({ password_sign_in: false, has_client_secret: true });
    const refused = await signIn();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe("invalid_credentials");
  });

  it("security: only admins see or change the provider; the issuer goes through the address guard; bad settings are 422", async () => {
    const agent = await createSignedInOperator(t, { workspaceId, role: "agent" });
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/workspace/sso`, headers: agent.headers })).statusCode).toBe(403);
    expect((await putSso(realProvider(), agent)).statusCode).toBe(403);
    for (const [body, field] of [
      [realProvider({ allowed_domains: [] }), "allowed_domains"],
      [realProvider({ allowed_domains: ["not a domain"] }), "allowed_domains"],
      [realProvider({ issuer: "not a url" }), "issuer"],
      [realProvider({ default_role: "owner" }), "default_role"],
      [realProvider({ issuer: "http://127.0.0.1:9/nothing-listens" }), "issuer"],
    ] as const) {
      const response = await putSso(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().error.fields).some((key) => key.startsWith(field)), JSON.stringify(response.json())).toBe(true);
    }
    // A domain has one provider.
    const other = await seedTenant(t.services);
    const otherAdmin = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin" });
    const taken = await putSso(realProvider(), otherAdmin);
    expect(taken.statusCode).toBe(422);
    expect(taken.json().error.fields.allowed_domains[0]).toMatch(/acme\.test/);
  });
});

describeEachStore("the single sign-on issuer behind the address guard on %s", (kind) => {
  let t: TestApp;
  let provider: LoopbackOpenIdProvider;
  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
    provider = await startOidcProvider({ redirectUri: ssoRedirectUri(PUBLIC_URL), postLogoutRedirectUri: ssoPostLogoutRedirectUri(PUBLIC_URL) });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  it("security: a loopback issuer is refused without FRONTDESK_SSO_ALLOW_PRIVATE_NETWORKS, and so is http", async () => {
    const admin = await createSignedInOperator(t, { workspaceId: (await seedTenant(t.services)).workspaceId, role: "admin" });
    const body = { display_name: "Acme ID", issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, allowed_domains: ["acme.test"] };
    const refused = await t.app.inject({ method: "PUT", url: `${CONSOLE}/workspace/sso`, headers: admin.headers, payload: body });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.fields.issuer[0]).toMatch(/https|loopback/);
    const literal = await t.app.inject({ method: "PUT", url: `${CONSOLE}/workspace/sso`, headers: admin.headers, payload: { ...body, issuer: "https://127.0.0.1/" } });
    expect(literal.json().error.fields.issuer[0]).toMatch(/loopback/);
  });
});
