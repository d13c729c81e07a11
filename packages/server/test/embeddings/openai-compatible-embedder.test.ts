import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EmbeddingError } from "../../src/embeddings/embedding-error.js";
import {
  OpenAiCompatibleEmbedder,
  type OpenAiCompatibleEmbedderOptions,
} from "../../src/embeddings/openai-compatible-embedder.js";
import { openAiError, serverVector, startLoopbackEmbeddingsServer, type LoopbackEmbeddingsServer } from "./loopback-embeddings-server.js";
import { cosine, norm } from "./vector-math.js";

const API_KEY = "sk-test-0123456789";
const MODEL = "text-embedding-3-small";
const DIMENSIONS = 16;

let server: LoopbackEmbeddingsServer;

beforeAll(async () => {
  server = await startLoopbackEmbeddingsServer({ apiKey: API_KEY, model: MODEL, dimensions: DIMENSIONS });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

function embedderFor(options: Partial<OpenAiCompatibleEmbedderOptions> = {}): OpenAiCompatibleEmbedder {
  return new OpenAiCompatibleEmbedder({
    baseUrl: server.origin,
    apiKey: API_KEY,
    model: MODEL,
    dimensions: DIMENSIONS,
    ...options,
  });
}

describe("openai-compatible embedder (happy)", () => {
  test("posts model, input and dimensions with the bearer key and returns unit vectors in input order", async () => {
    const embedder = embedderFor();
    const texts = ["refund policy", "shipping times", "opening hours"];
    const vectors = await embedder.embed(texts);

    expect(embedder.id).toBe(`openai:${MODEL}:${DIMENSIONS}`);
    expect(embedder.dimensions).toBe(DIMENSIONS);
    expect(server.requests).toEqual([
      {
        method: "POST",
        path: "/v1/embeddings",
        authorization: `Bearer ${API_KEY}`,
        body: { model: MODEL, input: texts, dimensions: DIMENSIONS, encoding_format: "float" },
      },
    ]);
    expect(vectors).toHaveLength(3);
    vectors.forEach((vector, index) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(DIMENSIONS);
      expect(norm(vector)).toBeCloseTo(1, 5);
      // The server answered in reverse order; each vector must still belong to its own text.
      const expected = Float32Array.from(serverVector(texts[index] ?? "", DIMENSIONS));
      expect(cosine(vector, expected)).toBeCloseTo(1, 5);
    });
  });

  test("splits large inputs into batches, one request each", async () => {
    const texts = Array.from({ length: 7 }, (_, index) => `question ${index}`);
    const vectors = await embedderFor({ batchSize: 3 }).embed(texts);
    expect(server.requests.map((request) => request.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)]);
    vectors.forEach((vector, index) => {
      expect(cosine(vector, Float32Array.from(serverVector(texts[index] ?? "", DIMENSIONS)))).toBeCloseTo(1, 5);
    });
  });

  test("accepts a base URL that already ends in /v1", async () => {
    await embedderFor({ baseUrl: `${server.origin}/v1/` }).embed(["hello"]);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/embeddings"]);
  });

  test("does not send dimensions when none are configured and the model's size is known", async () => {
    const embedder = embedderFor({ dimensions: undefined });
    expect(embedder.dimensions).toBe(1536);
    server.answerNextWith({
      status: 200,
      body: { object: "list", data: [{ object: "embedding", index: 0, embedding: serverVector("x", 1536) }], model: MODEL },
    });
    const [vector] = await embedder.embed(["x"]);
    expect(vector).toHaveLength(1536);
    expect(server.requests[0]?.body).toEqual({ model: MODEL, input: ["x"], encoding_format: "float" });
  });

  test("retries after a 429 and then succeeds", async () => {
    server.answerNextWith({
      status: 429,
      body: openAiError("Rate limit reached for requests", "requests"),
      headers: { "retry-after": "0" },
    });
    const vectors = await embedderFor().embed(["refund policy"]);
    expect(server.requests).toHaveLength(2);
    expect(cosine(vectors[0] ?? new Float32Array(), Float32Array.from(serverVector("refund policy", DIMENSIONS)))).toBeCloseTo(1, 5);
  });

  test("retries after a 503", async () => {
    server.answerNextWith({ status: 503, body: openAiError("overloaded", "server_error") });
    await embedderFor().embed(["a"]);
    expect(server.requests).toHaveLength(2);
  });

  test("waits as long as the server's Retry-After asks before retrying", async () => {
    // Three seconds is longer than the first back-off the SDK would choose on its own (two).
    server.answerNextWith({ status: 429, body: openAiError("Rate limit reached", "requests"), headers: { "retry-after": "3" } });
    const started = performance.now();
    await embedderFor().embed(["a"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(server.requests).toHaveLength(2);
  }, 10_000);
});

describe("openai-compatible embedder (error)", () => {
  test("a 400 fails at once with the server's message", async () => {
    server.answerNextWith({ status: 400, body: openAiError("This model's maximum context length is 8192 tokens") });
    const embedding = embedderFor().embed(["far too long"]);
    await expect(embedding).rejects.toBeInstanceOf(EmbeddingError);
    await expect(embedding).rejects.toMatchObject({ failure: "provider_rejected", status: 400 });
    await expect(embedding).rejects.toThrow(/answered 400 .*maximum context length is 8192 tokens/);
    expect(server.requests).toHaveLength(1);
  });

  test("a wrong key fails with a hint and without echoing the key", async () => {
    const embedding = embedderFor({ apiKey: "sk-wrong-key" }).embed(["a"]);
    await expect(embedding).rejects.toMatchObject({ failure: "provider_rejected", status: 401 });
    const error = await embedding.catch((caught: unknown) => caught);
    expect(String(error)).toContain("check the API key");
    expect(String(error)).not.toContain("sk-wrong-key");
  });

  test("gives up after the configured number of retries", async () => {
    const failure = { status: 500, body: openAiError("boom", "server_error"), headers: { "retry-after": "0" } };
    server.answerNextWith(failure, failure, failure);
    const embedding = embedderFor({ maxRetries: 2 }).embed(["a"]);
    await expect(embedding).rejects.toMatchObject({ failure: "provider_unavailable", status: 500 });
    await expect(embedding).rejects.toThrow(/answered 500 for model text-embedding-3-small: boom \(3 attempts\)/);
    expect(server.requests).toHaveLength(3);
  });

  test("rejects vectors of the wrong size", async () => {
    server.answerNextWith({ status: 200, body: { data: [{ index: 0, embedding: [1, 2, 3] }] } });
    await expect(embedderFor().embed(["a"])).rejects.toMatchObject({ failure: "invalid_response" });
  });

  test("rejects an answer that misses an input", async () => {
    server.answerNextWith({ status: 200, body: { data: [{ index: 1, embedding: serverVector("b", DIMENSIONS) }] } });
    await expect(embedderFor().embed(["a", "b"])).rejects.toThrow(/answered with 1 vectors for 2 inputs/);
  });

  test("an answer that is not an embeddings list fails with invalid_response", async () => {
    server.answerNextWith({ status: 200, body: { data: [{ index: 0, embedding: "not numbers" }] } });
    await expect(embedderFor().embed(["a"])).rejects.toMatchObject({ failure: "invalid_response" });
  });

  test("an abort ends the call at once, even while it waits to retry", async () => {
    server.answerNextWith({ status: 503, body: openAiError("overloaded", "server_error"), headers: { "retry-after": "30" } });
    const controller = new AbortController();
    const embedding = embedderFor().embed(["a"], { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(embedding).rejects.toMatchObject({ failure: "aborted" });
    expect(server.requests).toHaveLength(1);
  });

  test("an unreachable server fails with provider_unavailable after retrying", async () => {
    const closed = await startLoopbackEmbeddingsServer({ apiKey: API_KEY, model: MODEL, dimensions: DIMENSIONS });
    await closed.close();
    const embedding = embedderFor({ baseUrl: closed.origin, maxRetries: 1 }).embed(["a"]);
    await expect(embedding).rejects.toMatchObject({ failure: "provider_unavailable" });
    await expect(embedding).rejects.toThrow(/could not be reached/);
  });

  test("an unknown model without configured dimensions is a configuration error", () => {
    expect(() => embedderFor({ model: "nomic-embed-text", dimensions: undefined })).toThrow(EmbeddingError);
    expect(() => embedderFor({ model: "nomic-embed-text", dimensions: undefined })).toThrow(/dimensions .* unknown/);
  });
});
