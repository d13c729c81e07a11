import type { Channel } from "pusher-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { hashApiToken } from "../../src/auth/api-token-secret.js";
import { CONSOLE, consoleChannelAuthorizer, seedConsoleCast, type ConsoleSession } from "../support/console-session.js";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, pusherOptionsFor, type ListeningTestApp } from "../support/realtime-clients.js";
import { adminOf, bearer, startSession, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

/** What one pusher-js client heard on one channel, in order (pusher's own events left out). */
interface Heard {
  event: string;
  data: Record<string, unknown>;
}

/**
 * A console's view of its workspace channel: pusher-js subscribed through the console's auth
 * route, recording every event, and `next` waits for the first event (from now on) that matches.
 */
class WorkspaceListener {
  readonly heard: Heard[] = [];
  private waiters: { match: (heard: Heard) => boolean; resolve: (heard: Heard) => void }[] = [];

  constructor(readonly channel: Channel) {
    channel.bind_global((event: string, data: Record<string, unknown>) => {
      if (event.startsWith("pusher:")) return;
      const heard = { event, data };
      this.heard.push(heard);
      for (const waiter of this.waiters.filter((candidate) => candidate.match(heard))) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(heard);
      }
    });
  }

  /** Call before the change, await after it. */
  next(event: string, match: (data: Record<string, unknown>) => boolean = () => true): Promise<Heard> {
    return new Promise((resolve) => this.waiters.push({ match: (heard) => heard.event === event && match(heard.data), resolve }));
  }
}

describeEachStore("the Leads and Settings screens' events on the workspace channel, heard by pusher-js, on %s", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let outsider: ConsoleSession;
  /** An `agent`-role operator's console: every operator of the workspace hears the workspace channel. */
  let live: WorkspaceListener;
  let stranger: WorkspaceListener;
  const clients: Pusher[] = [];

  async function listen(session: ConsoleSession, workspaceId: string): Promise<WorkspaceListener> {
    const auth = `${CONSOLE}/broadcasting/auth`;
    const pusher = new Pusher(
      t.services.config.realtime.appKey,
      pusherOptionsFor(
        { app_key: t.services.config.realtime.appKey, host: "127.0.0.1", port: t.port, scheme: "ws" },
        { channelAuthorization: { endpoint: auth, transport: "ajax", customHandler: consoleChannelAuthorizer(`http://127.0.0.1:${t.port}${auth}`, session.headers) } },
      ),
    );
    clients.push(pusher);
    const channel = pusher.subscribe(`private-workspace.${workspaceId}`);
    await new Promise<void>((resolve, reject) => {
      channel.bind("pusher:subscription_succeeded", () => resolve());
      channel.bind("pusher:subscription_error", (error: unknown) => reject(new Error(`subscription refused: ${JSON.stringify(error)}`)));
    });
    return new WorkspaceListener(channel);
  }

  beforeAll(async () => {
    t = await createListeningTestApp(kind);
    const cast = await seedConsoleCast(t);
    ({ tenant, other, admin, outsider } = cast);
    live = await listen(cast.agentOperator, tenant.workspaceId);
    stranger = await listen(outsider, other.workspaceId);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t.close();
  });

  const call = (session: ConsoleSession, method: "POST" | "PATCH" | "DELETE", url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `${CONSOLE}${url}`, headers: session.headers, ...(payload === undefined ? {} : { payload }) });

  it("happy: a lead the widget captures is lead.captured; the same e-mail again is lead.updated (ids only, no contact details)", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const captured = live.next("lead.captured");
    const first = await t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: bearer(visitor.jwt), payload: { email: "Zoe@Example.com", name: "Zoë" } });
    expect(first.statusCode, first.body).toBe(201);
    const lead = first.json().data;
    expect((await captured).data).toEqual({ lead_id: lead.id, agent_id: tenant.agentId, conversation_id: visitor.conversationId, at: lead.updated_at });

    const updated = live.next("lead.updated");
    const again = await t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: bearer(visitor.jwt), payload: { email: "zoe@example.com", phone: "+33 1 23" } });
    expect(again.statusCode, again.body).toBe(200);
    expect((await updated).data).toEqual({ lead_id: lead.id, agent_id: tenant.agentId, conversation_id: visitor.conversationId, at: again.json().data.updated_at });
    // The contact details as written, not "zoe" alone, which a random id may hold ("lead_…cZoeFW").
    expect(JSON.stringify(live.heard)).not.toMatch(/zoe@example\.com|Zoë|\+33/i);
  });

  it("security: a token created and revoked in the console is announced by id, never with its plaintext or hash", async () => {
    const created = live.next("token.created");
    const response = await call(admin, "POST", "/tokens", { name: "CI", abilities: ["sources:read"] });
    expect(response.statusCode, response.body).toBe(201);
    const token = response.json().data;
    expect((await created).data).toEqual({ token_id: token.id, at: token.created_at });

    const revoked = live.next("token.revoked");
    const revocation = await call(admin, "DELETE", `/tokens/${token.id}`);
    expect(revocation.statusCode, revocation.body).toBe(200);
    expect((await revoked).data).toEqual({ token_id: token.id, at: revocation.json().data.revoked_at });

    const everything = JSON.stringify(live.heard);
    expect(everything).not.toContain(token.token);
    expect(everything).not.toContain(hashApiToken(token.token));
    expect(everything).not.toContain(token.prefix);
  });

  it("happy: an operator invited, made an admin, setting their password through the link, then removed: one event each, with the role", async () => {
    const invited = live.next("operator.invited");
    const invitation = await call(admin, "POST", "/operators", { email: "new.person@operators.test", name: "New Person", role: "agent" });
    expect(invitation.statusCode, invitation.body).toBe(201);
    const operator = invitation.json().data;
    expect((await invited).data).toEqual({ operator_id: operator.id, role: "agent", at: expect.any(String) });

    const promoted = live.next("operator.updated", (data) => data.role === "admin");
    expect((await call(admin, "PATCH", `/operators/${operator.id}`, { role: "admin" })).statusCode).toBe(200);
    expect((await promoted).data).toMatchObject({ operator_id: operator.id, role: "admin" });

    const passwordSet = live.next("operator.updated", (data) => data.operator_id === operator.id);
    const token = new URL(operator.set_password_url).hash.slice("#token=".length);
    const chosen = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/password`,
      headers: { origin: admin.headers.origin },
      payload: { token, password: "a long and unusual passphrase 42" },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((await passwordSet).data).toMatchObject({ operator_id: operator.id, role: "admin" });

    const removed = live.next("operator.removed");
    expect((await call(admin, "DELETE", `/operators/${operator.id}`)).statusCode).toBe(200);
    expect((await removed).data).toMatchObject({ operator_id: operator.id, role: "admin" });
    // The set-password link and the password are in no event.
    expect(JSON.stringify(live.heard)).not.toContain(token);
    expect(JSON.stringify(live.heard)).not.toContain("passphrase");
  });

  it("happy: the admin CLI's token and operator commands, run by the serving process, are announced the same way", async () => {
    const context = { ...adminOf(t.services), publish: t.services.bus.publish.bind(t.services.bus) };
    const created = live.next("token.created");
    const token = (await runAdminCommand(context, { command: "token.create", workspaceId: tenant.workspaceId, name: "Deploy", abilities: ["sources:write"] })) as {
      id: string;
      token: string;
    };
    expect((await created).data).toMatchObject({ token_id: token.id });
    const revoked = live.next("token.revoked");
    await runAdminCommand(context, { command: "token.revoke", tokenId: token.id });
    expect((await revoked).data).toMatchObject({ token_id: token.id });
    expect(JSON.stringify(live.heard)).not.toContain(token.token);

    const invited = live.next("operator.invited");
    const operator = (await runAdminCommand(context, { command: "operator.create", workspaceId: tenant.workspaceId, email: "cli@operators.test", name: "Cli" })) as { id: string };
    expect((await invited).data).toMatchObject({ operator_id: operator.id, role: "agent" });
    const passwordSet = live.next("operator.updated");
    await runAdminCommand(context, { command: "operator.set-password", operatorId: operator.id, password: "another long passphrase 42" });
    expect((await passwordSet).data).toMatchObject({ operator_id: operator.id });
    const removed = live.next("operator.removed");
    await runAdminCommand(context, { command: "operator.remove", operatorId: operator.id });
    expect((await removed).data).toMatchObject({ operator_id: operator.id });
  });

  it("security: another workspace's channel hears none of it, only its own changes", async () => {
    const own = stranger.next("token.created");
    const response = await call(outsider, "POST", "/tokens", { name: "Theirs", abilities: ["sources:read"] });
    expect(response.statusCode, response.body).toBe(201);
    await own;
    // Everything above was announced before this, on the same server: the outsider heard only its own token.
    expect(stranger.heard).toEqual([{ event: "token.created", data: { token_id: response.json().data.id, at: response.json().data.created_at } }]);
  });
});
