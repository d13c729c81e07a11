import { fillSavedReply, savedReplyListResponseSchema, savedReplyResponseSchema, savedReplyTextProblems } from "@frontdesk/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { bearer, startSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

describe("saved reply variables", () => {
  it("happy: known variables are filled, a missing value takes the fallback or nothing", () => {
    const text = "Hi {{visitor.name|there}}, I'm {{ operator.name }} from {{agent.name}}.{{visitor.name}}";
    expect(savedReplyTextProblems(text)).toEqual([]);
    expect(fillSavedReply(text, { "visitor.name": "Gina", "agent.name": "Acme", "operator.name": "Ana" })).toBe("Hi Gina, I'm Ana from Acme.Gina");
    expect(fillSavedReply(text, { "visitor.name": null, "agent.name": "Acme", "operator.name": "Ana" })).toBe("Hi there, I'm Ana from Acme.");
    expect(fillSavedReply(text, { "visitor.name": "  ", "agent.name": "Acme", "operator.name": "Ana" })).toBe("Hi there, I'm Ana from Acme.");
  });

  it("error: an unknown variable or a stray {{ is a problem", () => {
    expect(savedReplyTextProblems("Hi {{visitor.email}}")).toEqual([expect.stringContaining("unknown variable {{visitor.email}}")]);
    expect(savedReplyTextProblems("Hi {{visitor.name")).toEqual([expect.stringContaining("opens no variable")]);
    expect(savedReplyTextProblems("Hi {{}}")).toEqual([expect.stringContaining("unknown variable {{}}")]);
  });
});

describeEachStore("saved replies under /console/saved-replies on %s", (kind) => {
  let t: TestApp;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: "1000" });
    cast = await seedConsoleCast(t, { admin: "Ana Lopez", agentOperator: "Bruno Diaz" });
  }, 120_000);
  afterAll(() => t.close());

  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", path: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `${CONSOLE}/saved-replies${path}`, headers, ...(payload === undefined ? {} : { payload }) });
  const list = async (headers: Record<string, string>) => {
    const response = await call("GET", "", headers);
    expect(response.statusCode, response.body).toBe(200);
    return savedReplyListResponseSchema.parse(response.json()).data;
  };

  it("happy: an admin writes the workspace's, everyone their own; each lists the workspace's and only their own", async () => {
    const shared = await call("POST", "", cast.admin.headers, { scope: "workspace", title: "Refund sent", shortcut: " Refund ", content: "Hi {{visitor.name|there}}, your refund left today. {{operator.name}}" });
    expect(shared.statusCode, shared.body).toBe(201);
    expect(savedReplyResponseSchema.parse(shared.json()).data).toMatchObject({ scope: "workspace", owner_id: null, shortcut: "refund", title: "Refund sent" });
    const mine = await call("POST", "", cast.agentOperator.headers, { title: "My greeting", shortcut: "hi", content: "Hello! I'm {{operator.name}} of {{agent.name}}." });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().data).toMatchObject({ scope: "personal", owner_id: cast.agentOperator.operator.id });
    // The same shortcut in another scope is fine: the admin's own "hi".
    expect((await call("POST", "", cast.admin.headers, { title: "Admin hi", shortcut: "hi", content: "Hey" })).statusCode).toBe(201);

    expect((await list(cast.agentOperator.headers)).map((reply) => [reply.shortcut, reply.scope])).toEqual([
      ["hi", "personal"],
      ["refund", "workspace"],
    ]);
    expect((await list(cast.admin.headers)).map((reply) => [reply.shortcut, reply.scope, reply.title])).toEqual([
      ["hi", "personal", "Admin hi"],
      ["refund", "workspace", "Refund sent"],
    ]);
    expect(await list(cast.outsider.headers)).toEqual([]);

    const changed = await call("PATCH", `/${mine.json().data.id}`, cast.agentOperator.headers, { title: "Greeting" });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ title: "Greeting", shortcut: "hi", content: "Hello! I'm {{operator.name}} of {{agent.name}}." });
    const adminEdit = await call("PATCH", `/${shared.json().data.id}`, cast.admin.headers, { content: "Your refund is on its way, {{visitor.name}}." });
    expect(adminEdit.json().data.content).toBe("Your refund is on its way, {{visitor.name}}.");
    expect((await call("DELETE", `/${mine.json().data.id}`, cast.agentOperator.headers)).statusCode).toBe(204);
    expect((await list(cast.agentOperator.headers)).map((reply) => reply.shortcut)).toEqual(["refund"]);
  });

  it("happy: rendering fills the visitor's lead name, the agent's and the operator's names from the conversation", async () => {
    const created = await call("POST", "", cast.admin.headers, { scope: "workspace", title: "Welcome", shortcut: "welcome", content: "Hi {{visitor.name|there}}, {{operator.name}} from {{agent.name}} here." });
    const id = created.json().data.id as string;
    const visitor = await startSession(t.app, cast.tenant.agentId);
    const render = (headers: Record<string, string>, conversationId = visitor.conversationId) => call("POST", `/${id}/render`, headers, { conversation_id: conversationId });
    const anonymous = await render(cast.agentOperator.headers);
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    expect(anonymous.json()).toEqual({ data: { id, content: "Hi there, Bruno Diaz from Acme Assistant here." } });
    const lead = await t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: bearer(visitor.jwt), payload: { email: "gina@visitors.test", name: "Gina" } });
    expect(lead.statusCode, lead.body).toBeLessThan(300);
    expect((await render(cast.admin.headers)).json().data.content).toBe("Hi Gina, Ana Lopez from Acme Assistant here.");
    // Nothing was sent: the conversation holds no operator message.
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1 AND role = 'operator'`, [visitor.conversationId]);
    expect(rows[0]!.n).toBe(0);
    expect((await render(cast.admin.headers, "cnv_unknown")).json().error.code).toBe("conversation_not_found");
  });

  it("error: an unknown variable is refused when saved (422 with fields), as are bad shortcuts, blank fields and a taken shortcut", async () => {
    const unknown = await call("POST", "", cast.agentOperator.headers, { title: "Bad", shortcut: "bad", content: "Dear {{visitor.email}}" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error).toEqual({ code: "validation_failed", message: expect.any(String), fields: { content: [expect.stringContaining("unknown variable {{visitor.email}}")] } });
    const stray = await call("POST", "", cast.agentOperator.headers, { title: "Bad", shortcut: "bad", content: "Dear {{visitor.name" });
    expect(stray.json().error.fields.content).toEqual([expect.stringContaining("opens no variable")]);
    for (const [field, payload] of [
      ["shortcut", { title: "x", shortcut: "has space", content: "x" }],
      ["shortcut", { title: "x", shortcut: "/slash", content: "x" }],
      ["shortcut", { title: "x", shortcut: "x".repeat(33), content: "x" }],
      ["title", { title: "  ", shortcut: "ok", content: "x" }],
      ["content", { title: "x", shortcut: "ok", content: "   " }],
      ["scope", { title: "x", shortcut: "ok", content: "x", scope: "team" }],
    ] as const) {
      const refused = await call("POST", "", cast.agentOperator.headers, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(refused.json().error.fields)).toEqual([field]);
    }
    expect((await call("POST", "", cast.agentOperator.headers, { title: "Thanks", shortcut: "thanks", content: "Thank you!" })).statusCode).toBe(201);
    const taken = await call("POST", "", cast.agentOperator.headers, { title: "Thanks again", shortcut: "THANKS", content: "Thanks!" });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().error.fields).toEqual({ shortcut: [expect.stringContaining("/thanks is already a shortcut")] });
    const other = await call("POST", "", cast.agentOperator.headers, { title: "Other", shortcut: "other", content: "Other" });
    const clash = await call("PATCH", `/${other.json().data.id}`, cast.agentOperator.headers, { shortcut: "thanks" });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().error.fields).toEqual({ shortcut: [expect.stringContaining("/thanks")] });
    const badEdit = await call("PATCH", `/${other.json().data.id}`, cast.agentOperator.headers, { content: "{{agent.nickname}}" });
    expect(badEdit.json().error.fields).toEqual({ content: [expect.stringContaining("unknown variable")] });
    expect((await call("PATCH", `/${other.json().data.id}`, cast.agentOperator.headers, {})).statusCode).toBe(422);
    expect((await call("PATCH", "/svr_unknown", cast.agentOperator.headers, { title: "x" })).statusCode).toBe(404);
    expect((await call("GET", "", {})).statusCode).toBe(401);
    const crossSite = await call("POST", "", { cookie: cast.agentOperator.headers.cookie, origin: "https://evil.example" }, { title: "x", shortcut: "x", content: "x" });
    expect(crossSite.json().error.code).toBe("csrf_origin_mismatch");
  });

  it("security: an agent cannot write or change the workspace's replies (403); another operator's personal reply, or another workspace's, is 404 to read, change, delete or render", async () => {
    const shared = await call("POST", "", cast.admin.headers, { scope: "workspace", title: "Hours", shortcut: "hours", content: "We are open 9-5." });
    const adminOwn = await call("POST", "", cast.admin.headers, { title: "Private", shortcut: "private", content: "Admin's own words" });
    const agentWrite = await call("POST", "", cast.agentOperator.headers, { scope: "workspace", title: "x", shortcut: "sneaky", content: "x" });
    expect(agentWrite.statusCode).toBe(403);
    expect(agentWrite.json().error.code).toBe("forbidden");
    expect((await call("PATCH", `/${shared.json().data.id}`, cast.agentOperator.headers, { content: "Closed forever" })).statusCode).toBe(403);
    expect((await call("DELETE", `/${shared.json().data.id}`, cast.agentOperator.headers)).statusCode).toBe(403);
    expect((await list(cast.agentOperator.headers)).map((reply) => reply.shortcut)).not.toContain("private");

    const visitor = await startSession(t.app, cast.tenant.agentId);
    const adminReply = adminOwn.json().data.id as string;
    for (const attempt of [
      call("PATCH", `/${adminReply}`, cast.agentOperator.headers, { title: "mine now" }),
      call("DELETE", `/${adminReply}`, cast.agentOperator.headers),
      call("POST", `/${adminReply}/render`, cast.agentOperator.headers, { conversation_id: visitor.conversationId }),
      call("PATCH", `/${shared.json().data.id}`, cast.outsider.headers, { title: "x" }),
      call("DELETE", `/${shared.json().data.id}`, cast.outsider.headers),
      call("POST", `/${shared.json().data.id}/render`, cast.outsider.headers, { conversation_id: visitor.conversationId }),
    ]) {
      const response = await attempt;
      expect(response.statusCode, response.body).toBe(404);
      expect(response.body).not.toContain("Admin's own words");
    }
    // Another workspace's conversation cannot fill a reply either.
    const foreign = await startSession(t.app, cast.other.agentId);
    expect((await call("POST", `/${shared.json().data.id}/render`, cast.admin.headers, { conversation_id: foreign.conversationId })).statusCode).toBe(404);
    expect((await call("PATCH", `/${adminReply}`, cast.admin.headers, { title: "Still mine" })).json().data.title).toBe("Still mine");
  });
});
