import { execFileSync } from "node:child_process";
import { threadId } from "node:worker_threads";
import { afterAll, describe, expect, test } from "vitest";
import type { EmbeddingBatchReport } from "../../src/embeddings/embedder.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { hashingWorkerUrl } from "./compiled-workers.js";
import { cosine, norm } from "./vector-math.js";

const reports: EmbeddingBatchReport[] = [];
const embedder = new HashingEmbedder({
  workerUrl: hashingWorkerUrl,
  batchSize: 100,
  workerCount: 2,
  onBatch: (report) => reports.push(report),
});

afterAll(async () => {
  await embedder.close();
});

async function embedOne(text: string): Promise<Float32Array> {
  const [vector] = await embedder.embed([text]);
  if (vector === undefined) throw new Error("no vector");
  return vector;
}

describe("hashing embedder (happy)", () => {
  test("has a versioned id and 384 unit-length dimensions by default", async () => {
    expect(embedder.id).toBe("hashing:v1:384");
    expect(embedder.dimensions).toBe(384);
    expect(embedder.status()).toEqual({ provider: "hashing", id: "hashing:v1:384", degraded: false });
    const vector = await embedOne("How do I return an item I bought online?");
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector).toHaveLength(384);
    expect(norm(vector)).toBeCloseTo(1, 5);
  });

  test("honours a configured size", async () => {
    const small = new HashingEmbedder({ dimensions: 64, workerUrl: hashingWorkerUrl });
    const [vector] = await small.embed(["hello"]);
    expect(small.id).toBe("hashing:v1:64");
    expect(vector).toHaveLength(64);
    await small.close();
  });

  test("is deterministic within a process and across processes", async () => {
    const text = "Opening hours: Monday to Friday, 9–17";
    const first = await embedOne(text);
    expect(Array.from(await embedOne(text))).toEqual(Array.from(first));
    // A fresh Node process, running the compiled code, must produce the very same numbers.
    const script = `import { hashTextFeatures } from ${JSON.stringify(new URL("feature-hashing.js", hashingWorkerUrl).href)};
      process.stdout.write(JSON.stringify(Array.from(hashTextFeatures(${JSON.stringify(text)}, 384))));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(output)).toEqual(Array.from(first));
  });

  test("ignores case, and puts similar texts closer than dissimilar ones", async () => {
    const query = await embedOne("What is your refund policy?");
    const close = await embedOne("Our refund policy: refunds are issued within 14 days");
    const far = await embedOne("The shop is open from Monday to Friday");
    expect(Array.from(await embedOne("WHAT IS YOUR REFUND POLICY?"))).toEqual(Array.from(query));
    expect(cosine(query, close)).toBeGreaterThan(cosine(query, far));
    // Character n-grams relate inflections: "shipping" is nearer "shipped" than "refund".
    const shipping = await embedOne("shipping");
    expect(cosine(shipping, await embedOne("shipped"))).toBeGreaterThan(cosine(shipping, await embedOne("refund")));
  });

  test("handles non-Latin scripts, accents and emoji", async () => {
    const russian = await embedOne("Политика возврата товаров");
    const russianSimilar = await embedOne("возврата товаров в течение 14 дней");
    const japanese = await embedOne("営業時間は月曜日から金曜日です");
    const japaneseSimilar = await embedOne("営業時間について");
    for (const vector of [russian, japanese, await embedOne("Café crème 😀")]) expect(norm(vector)).toBeCloseTo(1, 5);
    expect(cosine(russian, russianSimilar)).toBeGreaterThan(cosine(russian, japanese));
    expect(cosine(japanese, japaneseSimilar)).toBeGreaterThan(cosine(japanese, russianSimilar));
    // NFKC: the composed and decomposed spellings of "café" are the same text.
    expect(Array.from(await embedOne("cafe\u0301"))).toEqual(Array.from(await embedOne("caf\u00e9")));
  });

  test("gives empty and word-less texts one shared unit vector", async () => {
    const [empty, blank, punctuation] = await embedder.embed(["", "   \n", "?!…"]);
    for (const vector of [empty, blank, punctuation]) {
      expect(vector).toHaveLength(384);
      expect(norm(vector ?? new Float32Array())).toBeCloseTo(1, 5);
    }
    expect(Array.from(blank ?? [])).toEqual(Array.from(empty ?? []));
    expect(Array.from(punctuation ?? [])).toEqual(Array.from(empty ?? []));
    expect(await embedder.embed([])).toEqual([]);
  });

  test("hashes a short call on the calling thread", async () => {
    reports.length = 0;
    await embedder.embed(["a short search query"]);
    expect(reports).toEqual([expect.objectContaining({ size: 1, threadId })]);
  });

  test("sends big batches through the worker pool and keeps their order", async () => {
    const texts = Array.from({ length: 250 }, (_, index) => `page ${index} about returns, refunds and shipping to zone ${index % 7}`);
    reports.length = 0;
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(250);
    expect(reports.map((report) => report.size)).toEqual(expect.arrayContaining([100, 100, 50]));
    expect(reports).toHaveLength(3);
    for (const report of reports) expect(report.threadId).not.toBe(threadId);
    // Worker results equal what the calling thread computes for the same text.
    for (const index of [0, 99, 100, 249]) {
      expect(Array.from(vectors[index] ?? [])).toEqual(Array.from(await embedOne(texts[index] ?? "")));
    }
  });
});

describe("hashing embedder (error)", () => {
  test("rejects a nonsensical size", () => {
    expect(() => new HashingEmbedder({ dimensions: 0 })).toThrow(RangeError);
  });

  test("refuses big batches after close", async () => {
    const closing = new HashingEmbedder({ workerUrl: hashingWorkerUrl, inlineCharacterLimit: 0 });
    await closing.embed(["warm the pool up"]);
    await closing.close();
    await expect(closing.embed(["after close"])).rejects.toMatchObject({ failure: "closed" });
  });
});
