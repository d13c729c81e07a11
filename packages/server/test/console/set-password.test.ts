import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { dictionary } from "@zxcvbn-ts/language-common";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { AppError } from "../../src/http/app-error.js";
import { passwordProblems } from "../../src/console/password-policy.js";
import { CONSOLE, createSignedInOperator } from "../support/console-session.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";

const PUBLIC_URL = "http://frontdesk.test:8080";
const PASSWORD = "a long enough passphrase";

describeEachStore("set-password links and password rules on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let count = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
    tenant = await seedTenant(t.services);
  });
  afterEach(() => {
    t.clock.offsetMs = 0;
  });
  afterAll(() => t.close());

  async function newOperator(role?: "admin" | "agent"): Promise<{ id: string; email: string; role: string; token: string; set_password_url: string }> {
    count += 1;
    const created = (await runAdminCommand(adminOf(t.services), {
      command: "operator.create",
      workspaceId: tenant.workspaceId,
      email: `person${count}@acme.test`,
      name: `Person ${count}`,
      ...(role ? { role } : {}),
    })) as { id: string; email: string; role: string; set_password_url: string };
    return { ...created, token: created.set_password_url.split("#token=")[1]! };
  }

  const setPassword = (payload: unknown, origin: string | null = PUBLIC_URL) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/password`, headers: origin ? { origin } : {}, payload: payload as object });
  const signIn = (email: string, password: string) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/session`, headers: { origin: PUBLIC_URL }, payload: { email, password } });

  it("happy: operator create prints a one-time link on the public URL; the token sets the password and the operator signs in", async () => {
    const operator = await newOperator();
    expect(operator.set_password_url).toMatch(/^http:\/\/frontdesk\.test:8080\/console\/set-password#token=[A-Za-z0-9_-]{43}$/);
    const response = await setPassword({ token: operator.token, password: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id: operator.id, email: operator.email });
    expect((await signIn(operator.email, PASSWORD)).statusCode).toBe(200);
    // Only the token's hash is stored.
    const { rows } = await t.services.db.query<{ token_hash: string }>(`SELECT token_hash FROM operator_password_tokens WHERE operator_id = $1`, [operator.id]);
    expect(rows.map((row) => row.token_hash)).not.toContain(operator.token);
  });

  it("happy: the first operator of a workspace is an admin, later ones agents, unless --role says otherwise", async () => {
    const fresh = (await runAdminCommand(adminOf(t.services), { command: "workspace.create", name: "Fresh" })) as { id: string };
    const create = (email: string, role?: "admin" | "agent") =>
      runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: fresh.id, email, name: email, ...(role ? { role } : {}) }) as Promise<{ role: string }>;
    expect((await create("first@fresh.test")).role).toBe("admin");
    expect((await create("second@fresh.test")).role).toBe("agent");
    expect((await create("third@fresh.test", "admin")).role).toBe("admin");
  });

  it("error: an e-mail of an operator of the same workspace (any case) is refused; another workspace's is an invitation like any, refused only as an account", async () => {
    await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email: "twice@acme.test", name: "A" });
    await expect(
      runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email: "Twice@Acme.test", name: "B" }),
    ).rejects.toMatchObject({ code: "validation_failed", fields: { email: ["already taken"] } });
    const other = (await runAdminCommand(adminOf(t.services), { command: "workspace.create", name: "Other" })) as { id: string };
    const account = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: other.id, email: "shared@acme.test", name: "A" })) as { id: string };
    await runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: account.id, password: PASSWORD });
    const invited = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email: "Shared@Acme.test", name: "B" })) as { id: string };
    // `admin operator set-password` makes an account too: the e-mail has one already.
    await expect(runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: invited.id, password: PASSWORD })).rejects.toMatchObject({ code: "email_taken" });
    expect((await signIn("shared@acme.test", PASSWORD)).statusCode).toBe(200);
  });

  it("error: a used token is refused the second time", async () => {
    const operator = await newOperator();
    expect((await setPassword({ token: operator.token, password: PASSWORD })).statusCode).toBe(200);
    const again = await setPassword({ token: operator.token, password: "yet another passphrase" });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe("password_token_invalid");
    expect((await signIn(operator.email, PASSWORD)).statusCode).toBe(200);
  });

  it("error: a token is refused after 24 hours", async () => {
    const operator = await newOperator();
    t.clock.offsetMs = 24 * 3600 * 1000 + 1000;
    const response = await setPassword({ token: operator.token, password: PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("password_token_invalid");
  });

  it("error: an unknown or malformed token is refused; a new link replaces the previous one", async () => {
    const operator = await newOperator();
    for (const token of ["A".repeat(43), "not-a-token", "x"]) {
      const response = await setPassword({ token, password: PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("password_token_invalid");
    }
    const link = (await runAdminCommand(adminOf(t.services), { command: "operator.password-link", operatorId: operator.id })) as { set_password_url: string };
    expect((await setPassword({ token: operator.token, password: PASSWORD })).statusCode).toBe(400);
    expect((await setPassword({ token: link.set_password_url.split("#token=")[1], password: PASSWORD })).statusCode).toBe(200);
  });

  it("error: a short, a common and an empty password are 422 with fields.password, and the token stays usable", async () => {
    const operator = await newOperator();
    const cases: [string, RegExp][] = [
      ["short1234", /at least 10 characters/],
      ["qwertyuiop", /1,000 most common/],
      ["1234567890", /1,000 most common/],
      ["Basketball", /1,000 most common/],
      ["", /at least 10 characters/],
    ];
    for (const [password, problem] of cases) {
      const response = await setPassword({ token: operator.token, password });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(response.json().error.fields.password.join(" ")).toMatch(problem);
    }
    expect((await setPassword({ token: operator.token, password: PASSWORD })).statusCode).toBe(200);
  });

  it("error: guessable passwords of 10 characters or more (password12, the most common ones, keyboard rows, dates, repeats) are 422 with zxcvbn's reason", async () => {
    const operator = await newOperator();
    const mostCommon = dictionary["passwords-common"].filter((password) => [...password].length >= 10).slice(0, 20);
    const guessable = ["password12", "Password12", "P@ssw0rd123", "qwertyuiop123", "1qaz2wsx3edc", "aaaaaaaaaaaa", "abcabcabcabc", "january2024!", ...mostCommon];
    // The rule itself for each (the route's per-IP budget is 20 a window), then the route for password12.
    for (const password of guessable) expect((await passwordProblems(password)).join(" "), password).toMatch(/1,000 most common|too easy to guess/);
    const password12 = await setPassword({ token: operator.token, password: "password12" });
    expect(password12.statusCode).toBe(422);
    expect(password12.json().error.code).toBe("validation_failed");
    expect(password12.json().error.fields.password).toEqual([expect.stringMatching(/^is too easy to guess: .+\. .+/)]);
    expect((await setPassword({ token: operator.token, password: "handlebar tangerine 42" })).statusCode).toBe(200);
  });

  it("security: setting a password without the public URL's Origin is 403 csrf_origin_mismatch", async () => {
    const operator = await newOperator();
    for (const origin of [null, "https://evil.example"]) {
      const response = await setPassword({ token: operator.token, password: PASSWORD }, origin);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("csrf_origin_mismatch");
    }
  });

  it("error: admin set-password refuses a weak password and an unknown operator", async () => {
    const operator = await newOperator();
    await expect(runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: operator.id, password: "password" })).rejects.toMatchObject({
      code: "validation_failed",
      fields: { password: expect.arrayContaining([expect.stringMatching(/10 characters/), expect.stringMatching(/most common/)]) },
    });
    await expect(runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: "op_missing", password: PASSWORD })).rejects.toMatchObject({ code: "not_found" });
    await expect(runAdminCommand(adminOf(t.services), { command: "operator.remove", operatorId: "op_missing" })).rejects.toBeInstanceOf(AppError);
  });

  it("security: requireAdmin lets an admin through and refuses an agent with 403 forbidden", async () => {
    const { requireAdmin } = await import("../../src/console/authenticate-operator.js");
    const admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
    const agent = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    expect(() => requireAdmin(admin.operator)).not.toThrow();
    expect(() => requireAdmin(agent.operator)).toThrow(expect.objectContaining({ code: "forbidden", status: 403 }));
  });
});
