import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { createMetricsRegistry } from "../../src/observability/metrics-registry.js";
import { announceFirstRunSetup, type SetupLink } from "../../src/console/setup/issue-setup-link.js";
import { SETUP_TOKEN_LIFETIME_MS } from "../../src/tenants/setup-token-repository.js";
import { CONSOLE, sessionCookie } from "../support/console-session.js";
import { capturedLogger, type LogLine } from "../support/captured-log.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const PUBLIC_URL = "http://console.frontdesk.test";
const PASSWORD = "correct horse battery";

/** The token of a setup link (`…/console/setup#token=…`). */
const tokenOf = (link: SetupLink) => new URLSearchParams(new URL(link.url).hash.slice(1)).get("token") ?? "";

describeEachStore("the first run's setup link on %s", (kind) => {
  let t: TestApp;
  let addressCount = 0;
  /** Each request from its own client address, so sign-in's per-IP budget never spills between tests. */
  const newAddress = () => `198.51.100.${(addressCount += 1)}`;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
  });
  afterEach(() => {
    t.clock.offsetMs = 0;
  });
  afterAll(() => t.close());

  const announce = async () => {
    const written: string[] = [];
    const { logger, lines } = capturedLogger();
    const now = t.services.now();
    const link = await announceFirstRunSetup(t.services.db, { publicUrl: PUBLIC_URL, now, logger, write: (text) => written.push(text) });
    return { link, now, written: written.join(""), lines };
  };
  const status = (token: string) => t.app.inject({ method: "POST", url: `${CONSOLE}/setup/status`, remoteAddress: newAddress(), payload: { token } });
  const setup = (body: Record<string, unknown>, headers: Record<string, string> = { origin: PUBLIC_URL }) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/setup`, remoteAddress: newAddress(), headers, payload: body });
  const admin = (token: string, email = "ada@acme.test") => ({ token, name: "Ada", email, password: PASSWORD, workspace_name: "Acme" });

  describe("before any operator exists", () => {
    it("happy: serve's announcement prints the link once in a box on stderr and as a structured log line; each start issues a new one", async () => {
      const first = await announce();
      expect(first.link).not.toBeNull();
      const link = first.link!;
      expect(link.url).toMatch(new RegExp(`^${PUBLIC_URL}/console/setup#token=[A-Za-z0-9_-]{43}$`));
      expect(link.expiresAt.getTime() - first.now.getTime()).toBe(SETUP_TOKEN_LIFETIME_MS);
      expect(first.written).toContain(`║  ${link.url}`);
      expect(first.written).toMatch(/╔═+╗/);
      expect(first.lines).toHaveLength(1);
      expect(first.lines[0]).toMatchObject({ event: "first_run_setup", setupUrl: link.url, expiresAt: link.expiresAt.toISOString() });

      const second = await announce();
      expect(tokenOf(second.link!)).not.toBe(tokenOf(link));
      // Only the hash is stored.
      const { rows } = await t.services.db.query<{ token_hash: string }>(`SELECT token_hash FROM setup_tokens`);
      expect(rows.map((row) => row.token_hash)).not.toContain(tokenOf(link));
      expect(rows).toHaveLength(2);

      const checked = await status(tokenOf(link));
      expect(checked.statusCode, checked.body).toBe(200);
      expect(checked.json().data).toEqual({ valid: true, reason: null, expires_at: link.expiresAt.toISOString() });
    });

    it("security: the link carries the token in its fragment; the first run sends it only in bodies, and the request log never holds it", async () => {
      const { link } = await announce();
      const token = tokenOf(link!);
      const page = new URL(link!.url);
      // The browser sends the page's path without the fragment: the token stays in the browser.
      expect(page.search).toBe("");
      expect(page.hash).toBe(`#token=${token}`);
      // The service as `serve` runs it, its request log captured at every level.
      const lines: LogLine[] = [];
      const logged = await buildApp(
        { ...t.services, metrics: createMetricsRegistry() },
        { loggerInstance: pino({ level: "trace" }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) }) },
      );
      try {
        const address = newAddress();
        // What the console's page does: it loads, checks the token, then a refused setup (the token is not spent).
        await logged.inject({ method: "GET", url: `${page.pathname}${page.search}`, remoteAddress: address });
        const checked = await logged.inject({ method: "POST", url: `${CONSOLE}/setup/status`, remoteAddress: address, payload: { token } });
        expect(checked.json().data.valid).toBe(true);
        const weak = await logged.inject({ method: "POST", url: `${CONSOLE}/setup`, remoteAddress: address, headers: { origin: PUBLIC_URL }, payload: { ...admin(token), password: "password" } });
        expect(weak.statusCode).toBe(422);
        const paths = lines.map((line) => line.path).filter((path) => typeof path === "string");
        expect(paths).toEqual(["/console/setup", `${CONSOLE}/setup/status`, `${CONSOLE}/setup`]);
        expect(lines.filter((line) => JSON.stringify(line).includes(token))).toEqual([]);
      } finally {
        await logged.close();
      }
      expect((await status(token)).json().data.valid).toBe(true);
    });

    it("error: an unknown, malformed or expired token is refused with setup_token_invalid (and the status check says token_invalid)", async () => {
      const { link } = await announce();
      for (const token of ["x".repeat(43), "not-a-token"]) {
        expect((await status(token)).json().data).toEqual({ valid: false, reason: "token_invalid", expires_at: null });
        const refused = await setup(admin(token));
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().error.code).toBe("setup_token_invalid");
      }
      t.clock.offsetMs = SETUP_TOKEN_LIFETIME_MS + 1000;
      expect((await status(tokenOf(link!))).json().data.reason).toBe("token_invalid");
      const expired = await setup(admin(tokenOf(link!)));
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error.code).toBe("setup_token_invalid");
      expect(expired.cookies).toEqual([]);
    });

    it("error: a weak password or a bad e-mail is a 422 naming the field, and the token is not spent", async () => {
      const { link } = await announce();
      const token = tokenOf(link!);
      const short = await setup({ ...admin(token), password: "short" });
      expect(short.statusCode).toBe(422);
      expect(short.json().error.fields.password).toEqual([expect.stringContaining("at least 10")]);
      const common = await setup({ ...admin(token), password: "password123" });
      expect(common.statusCode).toBe(422);
      expect(common.json().error.fields.password).toEqual([expect.stringContaining("most common")]);
      const email = await setup({ ...admin(token), email: "not an address" });
      expect(email.statusCode).toBe(422);
      expect(email.json().error.fields.email).toBeDefined();
      const missing = await setup({ token });
      expect(missing.statusCode).toBe(422);
      expect(Object.keys(missing.json().error.fields).sort()).toEqual(["email", "name", "password"]);
      expect((await status(token)).json().data.valid).toBe(true);
    });

    it("security: without Origin, or from another origin, setup is refused (CSRF) and the token is not spent", async () => {
      const { link } = await announce();
      const token = tokenOf(link!);
      const withoutPublicOrigin: Record<string, string>[] = [{}, { origin: "https://evil.example" }];
      for (const headers of withoutPublicOrigin) {
        const refused = await setup(admin(token), headers);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.code).toBe("csrf_origin_mismatch");
      }
      expect((await status(token)).json().data.valid).toBe(true);
    });
  });

  describe("setting up", () => {
    let tenant: Tenant;
    let cookie = "";
    let token = "";
    let otherToken = "";

    beforeAll(async () => {
      // A workspace made with the CLI before the first run (no operator): the setup adopts it.
      tenant = await seedTenant(t.services);
      token = tokenOf((await announce()).link!);
      otherToken = tokenOf((await announce()).link!);
    });

    it("happy: two links used at the same moment make one admin, signed in with the session cookie; the other gets setup_already_done", async () => {
      const [first, second] = await Promise.all([setup(admin(token)), setup(admin(otherToken, "bob@acme.test"))]);
      const statuses = [first.statusCode, second.statusCode].sort();
      expect(statuses).toEqual([201, 409]);
      const won = first.statusCode === 201 ? first : second;
      const lost = first.statusCode === 201 ? second : first;
      expect(lost.json().error.code).toBe("setup_already_done");
      const data = won.json().data;
      expect(data.workspace).toEqual({ id: tenant.workspaceId, name: "Acme" });
      expect(data.operator).toMatchObject({ workspace_id: tenant.workspaceId, role: "admin", name: "Ada" });
      const setCookie = won.cookies.find((candidate) => candidate.name === "frontdesk_console_session");
      expect(setCookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/v1/console" });
      cookie = sessionCookie(setCookie!.value);
      const me = await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie } });
      expect(me.statusCode).toBe(200);
      expect(me.json().data).toEqual(data.operator);
      const { rows } = await t.services.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM operators`);
      expect(rows[0]!.count).toBe(1);
    });

    it("happy: the admin can sign in with the chosen password", async () => {
      const email = (await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: { cookie } })).json().data.email as string;
      const signIn = await t.app.inject({ method: "POST", url: `${CONSOLE}/session`, remoteAddress: newAddress(), headers: { origin: PUBLIC_URL }, payload: { email, password: PASSWORD } });
      expect(signIn.statusCode, signIn.body).toBe(200);
    });

    it("error: once an operator exists, every link is spent: the status check says setup_done, POST is setup_already_done, and serve prints no new link", async () => {
      for (const used of [token, otherToken]) {
        expect((await status(used)).json().data).toEqual({ valid: false, reason: "setup_done", expires_at: null });
        const again = await setup(admin(used, "carol@acme.test"));
        expect(again.statusCode).toBe(409);
        expect(again.json().error.code).toBe("setup_already_done");
      }
      const { rows } = await t.services.db.query<{ used: number; unused: number }>(
        `SELECT count(*) FILTER (WHERE used_at IS NOT NULL)::int AS used, count(*) FILTER (WHERE used_at IS NULL)::int AS unused FROM setup_tokens`,
      );
      expect(rows[0]).toEqual({ used: 1, unused: 0 });
      const later = await announce();
      expect(later.link).toBeNull();
      expect(later.written).toBe("");
      expect(later.lines).toEqual([]);
    });
  });
});
