// A stand-in OpenAI-compatible embeddings server on loopback for `bench/ingest.mjs`:
// POST /v1/embeddings answers deterministic, L2-normalised vectors (signed hashing of the words of
// each input) at once, so the `openai` provider can be measured without a model: what remains is
// the pipeline's own overhead around a remote embedder (HTTP, JSON both ways, batching).
import { createHash } from "node:crypto";
import { createServer } from "node:http";

function embedText(text, dimensions) {
  const vector = new Float64Array(dimensions);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word === "") continue;
    const digest = createHash("md5").update(word).digest();
    const slot = digest.readUInt32LE(0) % dimensions;
    vector[slot] += digest[4] & 1 ? 1 : -1;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Array.from(vector, (value) => Math.round((value / norm) * 1e6) / 1e6);
}

/** Starts the server; `stats` counts requests and the texts embedded (one per chunk). */
export async function startEmbeddingsServer({ dimensions = 384 } = {}) {
  const stats = { requests: 0, inputs: 0, busyMs: 0 };
  const server = createServer((request, response) => {
    if (request.method !== "POST" || !request.url?.endsWith("/embeddings")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const parts = [];
    request.on("data", (part) => parts.push(part));
    request.on("end", () => {
      const started = performance.now();
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "invalid JSON" } }));
        return;
      }
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const size = Number.isInteger(body.dimensions) ? body.dimensions : dimensions;
      stats.requests += 1;
      stats.inputs += inputs.length;
      const data = inputs.map((input, index) => ({ object: "embedding", index, embedding: embedText(String(input), size) }));
      const tokens = inputs.reduce((total, input) => total + Math.ceil(String(input).length / 4), 0);
      const payload = JSON.stringify({ object: "list", data, model: body.model ?? "bench-hash", usage: { prompt_tokens: tokens, total_tokens: tokens } });
      stats.busyMs += performance.now() - started;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(payload);
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    stats,
    resetStats() {
      stats.requests = 0;
      stats.inputs = 0;
      stats.busyMs = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
