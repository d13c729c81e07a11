import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";

const W = "/api/v1/widget";

describeEachStore("request-human, typing, satisfaction, coupon on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let shop: Tenant;
  const operators: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    shop = await seedTenant(t.services, { vertical: "ecommerce" });
    for (const email of ["ann@acme.test", "bob@acme.test"]) {
      const operator = (await runAdminCommand(adminOf(t.services), { command: "operator.create", workspaceId: tenant.workspaceId, email, name: email })) as { id: string };
      operators.push(operator.id);
    }
  });
  afterAll(() => t.close());

  const show = (conversationId: string) =>
    runAdminCommand(adminOf(t.services), { command: "conversation.show", conversationId }) as Promise<Record<string, unknown>>;
  const post = (path: string, jwt: string | null, payload?: unknown) =>
    t.app.inject({ method: "POST", url: `${W}${path}`, headers: jwt ? bearer(jwt) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  it("happy: request-human stamps the conversation, pauses the bot, notifies every operator once and publishes", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post("/request-human", session.jwt, { reason: "I want to talk about a refund" });
    expect(response.statusCode).toBe(200);
    const first = response.json().data;
    expect(first).toMatchObject({ conversation_id: session.conversationId, reason: "I want to talk about a refund" });
    const conversation = await show(session.conversationId);
    expect(conversation.human_requested_at).toBe(first.human_requested_at);
    expect(conversation.bot_paused).toBe(true);

    const repeat = await post("/request-human", session.jwt, {});
    expect(repeat.json().data.human_requested_at).toBe(first.human_requested_at);

    for (const operatorId of operators) {
      const inbox = (await runAdminCommand(adminOf(t.services), { command: "inbox.list", operatorId })) as Record<string, unknown>[];
      const mine = inbox.filter((item) => item.conversation_id === session.conversationId);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ kind: "human_requested", payload: { reason: "I want to talk about a refund" } });
    }
    const events = t.published.filter((event) => event.type === "human.requested" && event.conversationId === session.conversationId);
    expect(events).toHaveLength(1);
  });

  it("happy: request-human with an empty body works", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post("/request-human", session.jwt);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.reason).toBeNull();
  });

  it("error: a reason over 500 characters is 422 and stamps nothing", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post("/request-human", session.jwt, { reason: "r".repeat(501) });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields).toHaveProperty("reason");
    expect((await show(session.conversationId)).human_requested_at).toBeNull();
  });

  it("error: request-human without a token is 401", async () => {
    expect((await post("/request-human", null, {})).json().error.code).toBe("missing_token");
  });

  it("happy: an empty typing POST with no credential is 204 and publishes nothing", async () => {
    const before = t.published.length;
    const response = await t.app.inject({ method: "POST", url: `${W}/typing` });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
    expect(t.published.length).toBe(before);
  });

  it("happy: typing with a session token publishes a typing signal for that conversation", async () => {
    const session = await startSession(t.app, tenant.agentId);
    expect((await post("/typing", session.jwt)).statusCode).toBe(204);
    expect((await post("/typing", session.jwt, { typing: false })).statusCode).toBe(204);
    const signals = t.published.filter((event) => event.type === "visitor.typing" && event.conversationId === session.conversationId);
    expect(signals.map((signal) => signal.type === "visitor.typing" && signal.typing)).toEqual([true, false]);
  });

  it("security: typing with a bad token is 204 and publishes nothing", async () => {
    const before = t.published.length;
    expect((await post("/typing", "garbage.token.here")).statusCode).toBe(204);
    expect(t.published.length).toBe(before);
  });

  it("error: typing with a non-boolean flag is 422", async () => {
    expect((await post("/typing", null, { typing: "yes" })).statusCode).toBe(422);
  });

  it("happy: satisfaction is stored on the conversation and the latest rating wins", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const first = await post("/satisfaction", session.jwt, { rating: "bad", comment: "slow" });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ conversation_id: session.conversationId, rating: "bad", comment: "slow" });
    await post("/satisfaction", session.jwt, { rating: "good" });
    expect((await show(session.conversationId)).satisfaction).toEqual({ rating: "good", comment: null });
  });

  it.each([
    ["no rating", { comment: "x" }, "rating"],
    ["an unknown rating", { rating: "meh" }, "rating"],
    ["a comment over 500 characters", { rating: "good", comment: "c".repeat(501) }, "comment"],
  ])("error: satisfaction with %s is 422", async (_label, body, field) => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post("/satisfaction", session.jwt, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields).toHaveProperty(field);
    expect((await show(session.conversationId)).satisfaction).toBeNull();
  });

  it("error: satisfaction without a token is 401", async () => {
    expect((await post("/satisfaction", null, { rating: "good" })).statusCode).toBe(401);
  });

  it("happy: an e-commerce agent's coupon stamps the conversation with the code and time", async () => {
    const session = await startSession(t.app, shop.agentId);
    const response = await post("/coupon/apply", session.jwt, { code: "SPRING-25" });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ conversation_id: session.conversationId, coupon_code: "SPRING-25" });
    const conversation = await show(session.conversationId);
    expect(conversation.coupon_code).toBe("SPRING-25");
    expect(typeof conversation.coupon_applied_at).toBe("string");
  });

  it("error: a general agent's coupon is 403 coupon_not_available", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post("/coupon/apply", session.jwt, { code: "SPRING-25" });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("coupon_not_available");
    expect((await show(session.conversationId)).coupon_code).toBeNull();
  });

  it.each([["ab"], ["a".repeat(33)], ["SPRING_25"], ["spring 25"], ["ünï"]])("error: coupon code %s is 422", async (code) => {
    const session = await startSession(t.app, shop.agentId);
    const response = await post("/coupon/apply", session.jwt, { code });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields).toHaveProperty("code");
  });

  it("error: an unpublished agent's session token stops working (404 agent_not_found)", async () => {
    const draft = await seedTenant(t.services);
    const session = await startSession(t.app, draft.agentId);
    await runAdminCommand(adminOf(t.services), { command: "agent.unpublish", agentId: draft.agentId });
    const response = await post("/satisfaction", session.jwt, { rating: "good" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("agent_not_found");
  });
});
