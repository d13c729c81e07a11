import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { adminOf, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const PASSWORD = "a long enough passphrase";

/** An invitation's answer with what differs between any two left out: ids, names, e-mails, times, the link's token. */
const shapeOf = (response: { statusCode: number; body: string }) => {
  const { data } = JSON.parse(response.body) as { data: Record<string, unknown> };
  return {
    status: response.statusCode,
    keys: Object.keys(data).sort(),
    role: data.role,
    password_set: data.password_set,
    workspace_id: data.workspace_id,
    link: String(data.set_password_url).replace(/#token=[A-Za-z0-9_-]+$/, "#token=…"),
  };
};

describeEachStore("inviting an e-mail another workspace uses, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let outsider: ConsoleSession;
  let count = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ tenant, admin, outsider } = await seedConsoleCast(t));
  }, 120_000);
  afterAll(() => t.close());

  const invite = (email: string) => {
    count += 1;
    return t.app.inject({ method: "POST", url: `${CONSOLE}/operators`, headers: admin.headers, payload: { email, name: `Invited ${count}`, role: "agent" } });
  };
  const tokenOf = (response: { body: string }) => String((JSON.parse(response.body) as { data: { set_password_url: string } }).data.set_password_url).split("#token=")[1]!;
  const accept = (token: string) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/password`, headers: { origin: admin.headers.origin }, payload: { token, password: PASSWORD } });
  const signIn = (email: string, password: string) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/session`, headers: { origin: admin.headers.origin }, payload: { email, password } });
  /** An operator of the other workspace with a password: an account of the deployment. */
  const anotherWorkspacesAccount = async (): Promise<{ id: string; email: string }> => {
    count += 1;
    const email = `account-${count}-${Date.now()}@elsewhere.test`;
    const created = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: outsider.operator.workspaceId, email, name: "Account" })) as { id: string };
    await runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: created.id, password: PASSWORD });
    return { id: created.id, email };
  };
  const operatorsOf = async (session: ConsoleSession) =>
    (await t.app.inject({ method: "GET", url: `${CONSOLE}/operators`, headers: session.headers })).json().data as { email: string; password_set: boolean }[];

  it("security: inviting another workspace's operator (an account, or an invitation not yet accepted) answers exactly as inviting a new address", async () => {
    // Another workspace's operator who signs in, and another's invitation no one accepted yet.
    const account = await anotherWorkspacesAccount();
    const pending = `pending-${Date.now()}@elsewhere.test`;
    await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: outsider.operator.workspaceId, email: pending, name: "Pending" });

    const fresh = await invite(`new-${Date.now()}@nowhere.test`);
    const taken = await invite(account.email.toUpperCase());
    const alsoInvited = await invite(pending);
    expect(fresh.statusCode, fresh.body).toBe(201);
    expect(shapeOf(taken)).toEqual(shapeOf(fresh));
    expect(shapeOf(alsoInvited)).toEqual(shapeOf(fresh));
    expect(shapeOf(fresh)).toMatchObject({ status: 201, role: "agent", password_set: false, workspace_id: tenant.workspaceId });
    // The inviting workspace lists them as any invitation; the other workspace's operators are untouched.
    expect((await operatorsOf(admin)).filter((operator) => operator.email.toLowerCase() === account.email)).toEqual([expect.objectContaining({ password_set: false })]);
    expect((await operatorsOf(outsider)).find((operator) => operator.email === account.email)).toMatchObject({ password_set: true });
  });

  it("error: the invited person learns it on accepting: 409 email_taken in the error shape; the account keeps its password and the invitation stays unaccepted", async () => {
    const account = await anotherWorkspacesAccount();
    const invited = await invite(account.email);
    expect(invited.statusCode).toBe(201);
    const refused = await accept(tokenOf(invited));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({ error: { code: "email_taken", message: expect.stringContaining("already has a Frontdesk account") } });
    // Nothing changed: the account signs in with its password, the invitation is still pending (its link unused: it still answers 409, not "used").
    expect((await signIn(account.email, PASSWORD)).json().data).toMatchObject({ id: account.id, workspace_id: outsider.operator.workspaceId });
    expect((await accept(tokenOf(invited))).statusCode).toBe(409);
    expect((await operatorsOf(admin)).filter((operator) => operator.email === account.email)).toEqual([expect.objectContaining({ password_set: false })]);
  });

  it("happy: two workspaces invite one new address: the first accepted becomes the account and signs in, the second is refused 409", async () => {
    const email = `twice-${Date.now()}@nowhere.test`;
    const first = await invite(email);
    const second = await t.app.inject({ method: "POST", url: `${CONSOLE}/operators`, headers: outsider.headers, payload: { email, name: "Elsewhere", role: "agent" } });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect((await accept(tokenOf(second))).statusCode).toBe(200);
    expect((await accept(tokenOf(first))).statusCode).toBe(409);
    expect((await signIn(email, PASSWORD)).json().data).toMatchObject({ workspace_id: outsider.operator.workspaceId });
  });

  it("error: an e-mail of an operator of the inviting workspace itself is 422 naming `email` (the admin sees that list anyway)", async () => {
    const again = await invite(admin.operator.email);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { code: "validation_failed", message: expect.any(String), fields: { email: ["already taken"] } } });
  });
});
