import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { FrontdeskEvent } from "../../src/events/frontdesk-events.js";
import { OPENAI_DONE, openAiChunkEvents } from "../answering/generate/fixtures/openai-chat-stream.js";
import { ANTHROPIC_MODEL, anthropicStreamEvents } from "../answering/generate/fixtures/anthropic-messages-stream.js";
import { startLoopbackChatServer, type LoopbackChatServer, type RecordedChatRequest, type ScriptedResponse } from "../answering/generate/loopback-chat-server.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const PUBLIC_URL = "http://console.frontdesk.test";
const SSE = { "content-type": "text/event-stream; charset=utf-8" };
const JSON_HEADERS = { "content-type": "application/json" };
const WORKSPACE_KEY = "sk-workspace-a-0123456789abcd";
const ENV_KEY = "sk-instance-env-key";

const streamed = (deltas: readonly string[]): ScriptedResponse => ({ status: 200, headers: SSE, steps: [...openAiChunkEvents(deltas), OPENAI_DONE].map((write) => ({ write })) });
const anthropicStreamed = (deltas: readonly string[]): ScriptedResponse => ({ status: 200, headers: SSE, steps: anthropicStreamEvents(deltas).map((write) => ({ write })) });
const json = (status: number, body: object): ScriptedResponse => ({ status, headers: JSON_HEADERS, steps: [{ write: JSON.stringify(body) }] });
const OPENAI_COMPLETION = {
  id: "chatcmpl-test",
  object: "chat.completion",
  created: 1749562415,
  model: "llama-a",
  choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 21, completion_tokens: 1, total_tokens: 22 },
};
const OPENAI_BAD_KEY = {
  error: { message: "Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.", type: "invalid_request_error", param: null, code: "invalid_api_key" },
};

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const systemPromptOf = (request: RecordedChatRequest): string =>
  String((request.body.messages as { role: string; content: string }[]).find((message) => message.role === "system")?.content ?? "");

describeEachStore("workspaces' model providers and agents' answer models on %s", (kind) => {
  let t: TestApp;
  let workspaceModel: LoopbackChatServer;
  let instanceModel: LoopbackChatServer;
  let a: Tenant;
  let b: Tenant;
  let adminA: ConsoleSession;
  let adminB: ConsoleSession;
  let agentRoleA: ConsoleSession;
  const raised: FrontdeskEvent[] = [];

  beforeAll(async () => {
    workspaceModel = await startLoopbackChatServer();
    instanceModel = await startLoopbackChatServer();
    t = await createTestApp(kind, {
      FRONTDESK_PUBLIC_URL: PUBLIC_URL,
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
      FRONTDESK_LLM_PROVIDER: "openai",
      FRONTDESK_LLM_BASE_URL: instanceModel.origin,
      FRONTDESK_LLM_MODEL: "gpt-instance",
      FRONTDESK_LLM_API_KEY: ENV_KEY,
      FRONTDESK_LLM_TIMEOUT_S: "2",
      // The loopback model servers are on 127.0.0.1: the guard would refuse them otherwise.
      FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: "true",
    });
    const events = t.services.events;
    t.services.events = {
      // The answering changes only: the consoles' live events (agent.changed …) are others' business.
      async raise(tx, event) {
        if (event.type === "agent.answering.changed") raised.push(event);
        await events.raise(tx, event);
      },
    };
    a = await seedTenant(t.services);
    b = await seedTenant(t.services);
    adminA = await createSignedInOperator(t, { workspaceId: a.workspaceId, role: "admin" });
    adminB = await createSignedInOperator(t, { workspaceId: b.workspaceId, role: "admin" });
    agentRoleA = await createSignedInOperator(t, { workspaceId: a.workspaceId, role: "agent" });
    // The first model request of each kind pays for loading the SDK's lazy parts: kept out of the first-token timeout.
    instanceModel.respondWith(streamed(["Hello."]));
    await ask(b.agentId, "Warm up the instance model");
  });
  afterAll(async () => {
    await t?.close();
    await workspaceModel?.close();
    await instanceModel?.close();
  });
  beforeEach(() => {
    workspaceModel.requests.length = 0;
    instanceModel.requests.length = 0;
    raised.length = 0;
  });

  const call = (session: ConsoleSession, method: "GET" | "PUT" | "DELETE" | "POST" | "PATCH", url: string, payload?: unknown) =>
    t.app.inject({ method, url: `${CONSOLE}${url}`, headers: session.headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  async function ask(agentId: string, message: string) {
    const session = await startSession(t.app, agentId);
    const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/messages", headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode, response.body).toBe(200);
    const { rows } = await t.services.db.query<{ content: string; generator: string; low_confidence: boolean }>(
      `SELECT content, generator, low_confidence FROM messages WHERE conversation_id = $1 AND role = 'bot'`,
      [session.conversationId],
    );
    return rows[0]!;
  }

  const setProvider = (session: ConsoleSession, body: Record<string, unknown>) => call(session, "PUT", "/workspace/model-provider", body);

  it("happy: an admin sets an OpenAI-compatible provider; the key is never returned; agents of workspace A use it, B's the instance's", async () => {
    const put = await setProvider(adminA, { provider: "openai-compatible", base_url: `${workspaceModel.origin}/v1`, model: "llama-a", api_key: WORKSPACE_KEY });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).not.toContain(WORKSPACE_KEY);
    expect(put.json().data).toMatchObject({
      workspace: { provider: "openai-compatible", base_url: `${workspaceModel.origin}/v1`, model: "llama-a", api_key_set: true, api_key_last4: "abcd" },
      instance_default: { provider: "openai", model: "gpt-instance" },
    });
    expect(raised).toEqual([{ type: "agent.answering.changed", workspaceId: a.workspaceId, agentIds: [a.agentId], changedAt: expect.any(String) }]);
    const { rows } = await t.services.db.query<{ api_key_sealed: string }>(`SELECT api_key_sealed FROM workspace_model_providers WHERE workspace_id = $1`, [a.workspaceId]);
    expect(rows[0]!.api_key_sealed).not.toContain(WORKSPACE_KEY);
    const read = await call(adminA, "GET", "/workspace/model-provider");
    expect(read.json().data.workspace).toEqual(put.json().data.workspace);
    expect((await call(adminB, "GET", "/workspace/model-provider")).json().data.workspace).toBeNull();

    // Its first answer pays for the SDK's lazy parts too.
    workspaceModel.respondWith(streamed(["Warm."]));
    await ask(a.agentId, "Warm up the workspace model");
    workspaceModel.requests.length = 0;

    workspaceModel.respondWith(streamed(["Delivery ", "takes two days."]));
    const answerA = await ask(a.agentId, "How long does delivery to Norway take?");
    expect(answerA).toMatchObject({ content: "Delivery takes two days.", generator: "openai-compatible:llama-a" });
    expect(workspaceModel.requests).toHaveLength(1);
    expect(workspaceModel.requests[0]!.headers.authorization).toBe(`Bearer ${WORKSPACE_KEY}`);
    expect(workspaceModel.requests[0]!.body.model).toBe("llama-a");

    instanceModel.respondWith(streamed(["From the instance."]));
    const answerB = await ask(b.agentId, "How long does delivery to Norway take?");
    expect(answerB).toMatchObject({ content: "From the instance.", generator: "openai:gpt-instance" });
    expect(instanceModel.requests[0]!.headers.authorization).toBe(`Bearer ${ENV_KEY}`);
    expect(workspaceModel.requests).toHaveLength(1);
  });

  it("happy: an agent's own model, instructions and the extractive answerer; an edit of the provider takes effect at once", async () => {
    const patched = await call(adminA, "PATCH", `/agents/${a.agentId}`, {
      answer_model: "qwen-small",
      instructions: { rules: "Always mention our 30-day guarantee.", length: "short", when_unsure: "say_unknown" },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ answer_model: "qwen-small", instructions: { rules: "Always mention our 30-day guarantee.", length: "short", when_unsure: "say_unknown" } });
    expect(raised).toEqual([{ type: "agent.answering.changed", workspaceId: a.workspaceId, agentIds: [a.agentId], changedAt: expect.any(String) }]);

    workspaceModel.respondWith(streamed(["Two days."]));
    expect(await ask(a.agentId, "How long does delivery to Norway take?")).toMatchObject({ generator: "openai-compatible:qwen-small" });
    const request = workspaceModel.requests[0]!;
    expect(request.body.model).toBe("qwen-small");
    const system = systemPromptOf(request);
    expect(system).toContain("Always mention our 30-day guarantee.");
    expect(system).toContain("Be brief: one or two sentences");
    expect(system).toContain("offer a person from the team only if the visitor asks for one");

    await call(adminA, "PATCH", `/agents/${a.agentId}`, { answer_model: "default" });
    const changed = await setProvider(adminA, { provider: "openai-compatible", base_url: `${workspaceModel.origin}/v1`, model: "llama-b" });
    expect(changed.json().data.workspace).toMatchObject({ model: "llama-b", api_key_set: true });
    workspaceModel.respondWith(streamed(["Two days."]));
    expect(await ask(a.agentId, "How long does delivery to Norway take?")).toMatchObject({ generator: "openai-compatible:llama-b" });
    expect(workspaceModel.requests.at(-1)!.headers.authorization).toBe(`Bearer ${WORKSPACE_KEY}`);

    await call(adminA, "PATCH", `/agents/${a.agentId}`, { answer_model: "extractive" });
    const extractive = await ask(a.agentId, "How long does delivery to Norway take?");
    expect(extractive.generator).toBe("extractive");
    expect(workspaceModel.requests).toHaveLength(2);
    await call(adminA, "PATCH", `/agents/${a.agentId}`, { answer_model: "default" });
  });

  it("error: a workspace model that stalls or answers garbage falls back to the extractive answer, never a 500", async () => {
    workspaceModel.respondWith({ status: 200, headers: SSE, steps: [{ stall: true }] });
    const stalled = await ask(a.agentId, "How long does delivery to Norway take?");
    expect(stalled).toMatchObject({ generator: "extractive", low_confidence: true });
    workspaceModel.respondWith({ status: 200, headers: JSON_HEADERS, steps: [{ write: "<html>Bad gateway</html>" }] });
    const garbage = await ask(a.agentId, "How long does delivery to Norway take?");
    expect(garbage).toMatchObject({ generator: "extractive", low_confidence: true });
  });

  it("happy: the Test button makes one small call and shows the provider's success or its own error", async () => {
    workspaceModel.respondWith(json(200, OPENAI_COMPLETION));
    const ok = await call(adminA, "POST", "/workspace/model-provider/test", {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ ok: true, generator: "openai-compatible:llama-b", reply: "OK", error: null });
    expect(workspaceModel.requests).toHaveLength(1);
    expect(workspaceModel.requests[0]!.body).toMatchObject({ model: "llama-b", max_tokens: 16 });
    expect(workspaceModel.requests[0]!.headers.authorization).toBe(`Bearer ${WORKSPACE_KEY}`);

    // Unsaved settings: another key, refused by the provider.
    workspaceModel.respondWith(json(401, OPENAI_BAD_KEY));
    const refused = await call(adminA, "POST", "/workspace/model-provider/test", { provider: "openai", base_url: `${workspaceModel.origin}/v1`, model: "gpt-4o-mini", api_key: "sk-wrong" });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().data).toMatchObject({ ok: false, reply: null, error: { status: 401, message: expect.stringContaining("Incorrect API key provided") } });
    expect(refused.json().data.error.body_excerpt).toContain("invalid_api_key");
    expect(workspaceModel.requests[1]!.headers.authorization).toBe("Bearer sk-wrong");

    // Anthropic's own words, and its success.
    workspaceModel.respondWith(json(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
    const anthropicRefused = await call(adminA, "POST", "/workspace/model-provider/test", { provider: "anthropic", base_url: workspaceModel.origin, model: ANTHROPIC_MODEL, api_key: "sk-ant-wrong" });
    expect(anthropicRefused.json().data).toMatchObject({ ok: false, error: { status: 401, message: "invalid x-api-key" } });
    workspaceModel.respondWith(
      json(200, { id: "msg_1", type: "message", role: "assistant", model: ANTHROPIC_MODEL, content: [{ type: "text", text: "OK" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } }),
    );
    const anthropicOk = await call(adminA, "POST", "/workspace/model-provider/test", { provider: "anthropic", base_url: workspaceModel.origin, model: ANTHROPIC_MODEL, api_key: "sk-ant-right" });
    expect(anthropicOk.json().data).toMatchObject({ ok: true, generator: `anthropic:${ANTHROPIC_MODEL}`, reply: "OK" });
    expect(workspaceModel.requests.at(-1)!.headers["x-api-key"]).toBe("sk-ant-right");

    // Nobody answers: why, in words.
    const nothing = await call(adminA, "POST", "/workspace/model-provider/test", { provider: "openai-compatible", base_url: `http://127.0.0.1:${await closedPort()}/v1`, model: "llama" });
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json().data).toMatchObject({ ok: false, error: { status: null, message: expect.stringMatching(/ECONNREFUSED|connect/i) } });
  });

  it("happy: Anthropic as a workspace's provider answers its agents", async () => {
    const put = await setProvider(adminB, { provider: "anthropic", base_url: workspaceModel.origin, model: ANTHROPIC_MODEL, api_key: "sk-ant-workspace-b-key" });
    expect(put.statusCode, put.body).toBe(200);
    workspaceModel.respondWith(anthropicStreamed(["Warm."]), anthropicStreamed(["Returns ", "are free."]));
    await ask(b.agentId, "Warm up Anthropic");
    expect(await ask(b.agentId, "Can I return my order?")).toMatchObject({ content: "Returns are free.", generator: `anthropic:${ANTHROPIC_MODEL}` });
    expect(workspaceModel.requests.at(-1)!.headers["x-api-key"]).toBe("sk-ant-workspace-b-key");
    const removed = await call(adminB, "DELETE", "/workspace/model-provider");
    expect(removed.statusCode).toBe(204);
    expect(raised.at(-1)).toMatchObject({ type: "agent.answering.changed", workspaceId: b.workspaceId, agentIds: [b.agentId] });
    instanceModel.respondWith(streamed(["Back to the instance."]));
    expect(await ask(b.agentId, "Can I return my order?")).toMatchObject({ generator: "openai:gpt-instance" });
  });

  it("security: only admins read or change the provider; a key is kept only for the same provider and address", async () => {
    expect((await call(agentRoleA, "GET", "/workspace/model-provider")).statusCode).toBe(403);
    expect((await setProvider(agentRoleA, { provider: "openai", model: "gpt-4o-mini", api_key: "sk-x" })).statusCode).toBe(403);
    expect((await call(agentRoleA, "POST", "/workspace/model-provider/test", {})).statusCode).toBe(403);
    const moved = await setProvider(adminA, { provider: "openai-compatible", base_url: "http://127.0.0.1:9/v1", model: "llama-b" });
    expect(moved.json().data.workspace).toMatchObject({ api_key_set: false, api_key_last4: null });
    const openAi = await setProvider(adminA, { provider: "openai", model: "gpt-4o-mini" });
    expect(openAi.statusCode).toBe(422);
    expect(openAi.json().error.fields).toEqual({ api_key: ["the openai provider needs an API key"] });
  });

  it("error: bad input is 422 with its fields", async () => {
    const expectFields = async (response: Promise<{ statusCode: number; json(): { error: { code: string; fields?: Record<string, string[]> } } }>, fields: string[]) => {
      const answered = await response;
      expect(answered.statusCode).toBe(422);
      expect(answered.json().error.code).toBe("validation_failed");
      expect(Object.keys(answered.json().error.fields ?? {}).sort()).toEqual(fields);
    };
    await expectFields(setProvider(adminA, { provider: "mistral-cloud", model: "x" }), ["provider"]);
    await expectFields(setProvider(adminA, { provider: "openai-compatible", base_url: "ftp://models.example/v1", model: "x" }), ["base_url"]);
    await expectFields(setProvider(adminA, { provider: "openai-compatible", model: "x" }), ["base_url"]);
    await expectFields(setProvider(adminA, { provider: "openai", api_key: "sk-x" }), ["model"]);
    await expectFields(call(adminA, "PATCH", `/agents/${a.agentId}`, { instructions: { rules: "x".repeat(2001) } }), ["instructions.rules"]);
    await expectFields(call(adminA, "PATCH", `/agents/${a.agentId}`, { instructions: { length: "epic" } }), ["instructions.length"]);
    await t.app.inject({ method: "DELETE", url: `${CONSOLE}/workspace/model-provider`, headers: adminB.headers });
    await expectFields(call(adminB, "PATCH", `/agents/${b.agentId}`, { answer_model: "gpt-4o" }), ["answer_model"]);
  });
});

describeEachStore("a workspace model provider's address on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
    tenant = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
  });
  afterAll(() => t.close());

  it("security: loopback, private and metadata addresses are refused with model_address_refused unless the deployment allows them", async () => {
    for (const baseUrl of ["http://127.0.0.1:11434/v1", "http://localhost:11434/v1", "http://10.0.0.5:8000/v1", "http://169.254.169.254/v1", "http://[::1]:1234/v1"]) {
      const response = await t.app.inject({
        method: "PUT",
        url: `${CONSOLE}/workspace/model-provider`,
        headers: admin.headers,
        payload: { provider: "openai-compatible", base_url: baseUrl, model: "llama3.1" },
      });
      expect(response.statusCode, baseUrl).toBe(422);
      expect(response.json().error.code).toBe("model_address_refused");
      expect(response.json().error.message).toContain("FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS");
      expect(Object.keys(response.json().error.fields)).toEqual(["base_url"]);
    }
    const test = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/workspace/model-provider/test`,
      headers: admin.headers,
      payload: { provider: "openai-compatible", base_url: "http://127.0.0.1:11434/v1", model: "llama3.1" },
    });
    expect(test.statusCode).toBe(422);
    expect(test.json().error.code).toBe("model_address_refused");
    const { rows } = await t.services.db.query(`SELECT 1 FROM workspace_model_providers WHERE workspace_id = $1`, [tenant.workspaceId]);
    expect(rows).toHaveLength(0);
  });
});
