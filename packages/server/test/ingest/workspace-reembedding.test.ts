import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { WorkspaceEmbeddings } from "@frontdesk/contracts";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { startLoopbackEmbeddingsServer, type LoopbackEmbeddingsServer } from "../embeddings/loopback-embeddings-server.js";

const KEY = "sk-workspace-embeddings-0123";
const DIMENSIONS = 8;
const INSTANCE = "hashing:v1:384";

/**
 * A workspace changes its embeddings provider to a scripted OpenAI-compatible server on loopback:
 * its knowledge is re-embedded in the background while its answers keep using the old vectors,
 * then it switches at once; another workspace is untouched.
 */
describeEachStore("re-embedding a workspace's knowledge on %s", (kind) => {
  let t: TestApp;
  let shop: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let first: LoopbackEmbeddingsServer;
  let second: LoopbackEmbeddingsServer;

  beforeAll(async () => {
    first = await startLoopbackEmbeddingsServer({ apiKey: KEY, model: "embed-first", dimensions: DIMENSIONS });
    second = await startLoopbackEmbeddingsServer({ apiKey: KEY, model: "embed-second", dimensions: DIMENSIONS });
    t = await createTestApp(kind, { FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: "true", FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" }, { workers: {} });
    shop = await seedTenant(t.services);
    other = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: shop.workspaceId, role: "admin" });
    await pushKnowledge(t, shop.workspaceId, shop.agentId, bikeShopKnowledge);
    await pushKnowledge(t, other.workspaceId, other.agentId, bikeShopKnowledge);
  });
  afterAll(async () => {
    await t.close();
    await first.close();
    await second.close();
  });
  beforeEach(() => {
    first.requests.length = 0;
    second.requests.length = 0;
  });

  const choose = (payload: Record<string, unknown>) => t.app.inject({ method: "PUT", url: `${CONSOLE}/embeddings`, headers: admin.headers, payload });
  const status = async (): Promise<WorkspaceEmbeddings> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/embeddings`, headers: admin.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const until = async (what: string, done: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      if (await done()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${what} did not happen in time`);
  };
  const embeddersOf = async (workspaceId: string) => {
    const { rows } = await t.services.db.query<{ embedder: string; count: number }>(
      `SELECT c.embedder, count(*)::int AS count FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.workspace_id = $1 GROUP BY c.embedder ORDER BY c.embedder`,
      [workspaceId],
    );
    return Object.fromEntries(rows.map((row) => [row.embedder, row.count]));
  };
  const ask = async (tenant: Tenant, message: string) => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/messages", headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { content: string; citations: { url: string }[] };
  };
  const asked = (server: LoopbackEmbeddingsServer, text: string) =>
    server.requests.some((request) => Array.isArray(request.body.input) && request.body.input.some((input) => input === text));
  const firstChoice = () => ({ provider: "openai-compatible", base_url: first.origin, model: "embed-first", dimensions: DIMENSIONS, api_key: KEY });

  it("happy: answers come from the old vectors throughout, then from the new ones once complete; the other workspace is untouched", async () => {
    const otherBefore = await embeddersOf(other.workspaceId);
    const chunks = (await embeddersOf(shop.workspaceId))[INSTANCE]!;
    first.pause();
    const response = await choose(firstChoice());
    expect(response.statusCode, response.body).toBe(202);
    const started: WorkspaceEmbeddings = response.json().data;
    expect(started.active).toMatchObject({ provider: "default", embedder: INSTANCE });
    expect(started.reembedding).toMatchObject({ provider: "openai-compatible", state: "running", done: 0, total: chunks, embedder: `openai:embed-first:${DIMENSIONS}`, api_key_set: true });
    expect(response.body).not.toContain(KEY);

    // The server holds the first batch: questions are answered meanwhile, embedded by the old embedder.
    await until("the first batch to reach the server", async () => first.held > 0);
    const during = await ask(shop, "How long does express delivery take?");
    expect(during.citations.map((citation) => citation.url)).toContain("https://shop.example.com/help/delivery");
    expect(asked(first, "How long does express delivery take?")).toBe(false);
    // A document pushed during the re-embedding is indexed with the active embedder and picked up by it.
    await pushKnowledge(t, shop.workspaceId, shop.agentId, [
      { title: "Gift cards", source_url: "https://shop.example.com/help/gift-cards", content: "Gift cards are valid for three years and can be used online and in our stores." },
    ]);
    expect((await status()).reembedding?.state).toBe("running");

    first.resume();
    await until("the switch", async () => (await status()).reembedding === null);
    const after = await status();
    expect(after.active).toMatchObject({ provider: "openai-compatible", base_url: `${first.origin}/`, model: "embed-first", embedder: `openai:embed-first:${DIMENSIONS}`, api_key_set: true });
    expect(after.active.since).not.toBeNull();

    first.requests.length = 0;
    const answered = await ask(shop, "Are gift cards valid for long?");
    expect(answered.citations.map((citation) => citation.url)).toContain("https://shop.example.com/help/gift-cards");
    expect(asked(first, "Are gift cards valid for long?")).toBe(true);
    expect(first.requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);

    // The old vectors are deleted after the switch; every chunk has its new one, and only one.
    await until("the old vectors to go", async () => (await embeddersOf(shop.workspaceId))[INSTANCE] === undefined);
    expect(await embeddersOf(shop.workspaceId)).toEqual({ [`openai:embed-first:${DIMENSIONS}`]: chunks + 1 });
    expect(await embeddersOf(other.workspaceId)).toEqual(otherBefore);
    const otherAnswer = await ask(other, "Can I return a bike?");
    expect(otherAnswer.citations.map((citation) => citation.url)).toContain("https://shop.example.com/help/returns");
    expect(asked(first, "Can I return a bike?")).toBe(false);
  });

  it("error: a provider that fails keeps answers on the old vectors and shows its error; a retry resumes", async () => {
    const before = await embeddersOf(shop.workspaceId);
    second.answerNextWith({ status: 401, body: { error: { message: "Invalid key for this project", type: "invalid_api_key", param: null, code: null } } });
    const response = await choose({ provider: "openai-compatible", base_url: second.origin, model: "embed-second", dimensions: DIMENSIONS, api_key: KEY });
    expect(response.statusCode, response.body).toBe(202);
    await until("the failure", async () => (await status()).reembedding?.state === "failed");
    const failed = await status();
    expect(failed.reembedding?.error?.message).toContain("Invalid key for this project");
    expect(failed.active.embedder).toBe(`openai:embed-first:${DIMENSIONS}`);
    const answer = await ask(shop, "How long does a battery charge take?");
    expect(answer.citations.map((citation) => citation.url)).toContain("https://shop.example.com/help/battery");
    expect(asked(second, "How long does a battery charge take?")).toBe(false);

    const retried = await t.app.inject({ method: "POST", url: `${CONSOLE}/embeddings/retry`, headers: admin.headers });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json().data.reembedding.state).toBe("running");
    await until("the switch", async () => (await status()).reembedding === null);
    expect((await status()).active.embedder).toBe(`openai:embed-second:${DIMENSIONS}`);
    await until("the old vectors to go", async () => Object.keys(await embeddersOf(shop.workspaceId)).length === 1);
    expect(await embeddersOf(shop.workspaceId)).toEqual({ [`openai:embed-second:${DIMENSIONS}`]: before[`openai:embed-first:${DIMENSIONS}`] });
  });

  it("happy: a change during a re-embedding supersedes it; its vectors are deleted", async () => {
    first.pause();
    expect((await choose(firstChoice())).statusCode).toBe(202);
    await until("the first batch to reach the server", async () => first.held > 0);
    // Back to the instance's default, while the first server still holds the batch.
    const back = await choose({ provider: "default" });
    expect(back.statusCode, back.body).toBe(202);
    expect(back.json().data.reembedding).toMatchObject({ provider: "default", embedder: INSTANCE, state: "running" });
    first.resume();
    await until("the switch", async () => (await status()).reembedding === null);
    expect((await status()).active).toMatchObject({ provider: "default", embedder: INSTANCE, since: null });
    await until("the other vectors to go", async () => Object.keys(await embeddersOf(shop.workspaceId)).length === 1);
    expect(Object.keys(await embeddersOf(shop.workspaceId))).toEqual([INSTANCE]);
    const answer = await ask(shop, "Do you deliver on Sundays?");
    expect(answer.citations.map((citation) => citation.url)).toContain("https://shop.example.com/help/delivery");
  });

  it("happy: choosing the embedder in use applies at once, with nothing to re-embed", async () => {
    const response = await choose({ provider: "hashing" });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().data).toMatchObject({ active: { provider: "hashing", embedder: INSTANCE }, reembedding: null });
    expect((await choose({ provider: "default" })).json().data).toMatchObject({ active: { provider: "default" }, reembedding: null });
  });

  it("error: bad choices are refused with 422 and the field, never a 500", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ provider: "openai-compatible", model: "embed-first", dimensions: 8 }, "base_url"],
      [{ provider: "openai-compatible", base_url: first.origin, dimensions: 8 }, "model"],
      [{ provider: "openai-compatible", base_url: "ftp://models.example.com", model: "m", dimensions: 8 }, "base_url"],
      [{ provider: "openai-compatible", base_url: "not a url", model: "m", dimensions: 8 }, "base_url"],
      [{ provider: "openai-compatible", base_url: "http://user:secret@127.0.0.1:9", model: "m", dimensions: 8 }, "base_url"],
      [{ provider: "openai-compatible", base_url: first.origin, model: "an-unknown-model" }, "dimensions"],
      [{ provider: "openai-compatible", base_url: first.origin, model: "m", dimensions: 0 }, "dimensions"],
      [{ provider: "ollama" }, "provider"],
      // The local model's files are not on this instance (a workspace's choice never downloads them).
      [{ provider: "local" }, "provider"],
      [{ provider: "hashing", surprise: true }, ""],
    ];
    for (const [payload, field] of cases) {
      const response = await choose(payload);
      expect(response.statusCode, `${JSON.stringify(payload)}: ${response.body}`).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      if (field) expect(Object.keys(response.json().error.fields ?? {})).toContain(field);
    }
    expect((await status()).reembedding).toBeNull();
  });

  it("security: retrying with nothing failed changes nothing; an agent may neither read nor change the setting", async () => {
    const retried = await t.app.inject({ method: "POST", url: `${CONSOLE}/embeddings/retry`, headers: admin.headers });
    expect(retried.statusCode).toBe(202);
    expect(retried.json().data.reembedding).toBeNull();
    const agent = await createSignedInOperator(t, { workspaceId: shop.workspaceId, role: "agent" });
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/embeddings`, headers: agent.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "PUT", url: `${CONSOLE}/embeddings`, headers: agent.headers, payload: { provider: "hashing" } })).statusCode).toBe(403);
  });

  it("security: the key is stored sealed and never returned", async () => {
    first.pause();
    expect((await choose(firstChoice())).statusCode).toBe(202);
    const { rows } = await t.services.db.query<{ api_key_ciphertext: string }>(`SELECT api_key_ciphertext FROM embedding_generations WHERE workspace_id = $1`, [shop.workspaceId]);
    expect(rows.some((row) => row.api_key_ciphertext?.startsWith("v1."))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(KEY);
    const shown = await t.app.inject({ method: "GET", url: `${CONSOLE}/embeddings`, headers: admin.headers });
    expect(shown.body).not.toContain(KEY);
    expect((await choose({ provider: "default" })).statusCode).toBe(202);
    first.resume();
    await until("the switch", async () => (await status()).reembedding === null);
  });
});
