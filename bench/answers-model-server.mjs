// The model server of `bench/answers.mjs`: POST /v1/chat/completions with `stream: true` on
// loopback, in the load generator's own process so that its clock is the client's. It notes when
// each chat request arrives (performance.now() when Node hands over the request, before the body
// is read) and streams a short answer at once, as OpenAI chunks and `data: [DONE]`: the model
// costs nothing, so what the visitor waits for before the first token is the service alone.
import { createServer } from "node:http";

const ANSWER_PIECES = ["According to ", "the help centre, ", "this is covered ", "in the article ", "above [1]. ", "Anything else I can help with?"];

function chunk(id, created, delta, finishReason = null) {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: "bench", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** The visitor's question is the last user message (earlier user turns may be merged into it). */
function questionOf(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = [...messages].reverse().find((message) => message.role === "user");
  const content = typeof last?.content === "string" ? last.content : Array.isArray(last?.content) ? last.content.map((part) => part.text ?? "").join("") : "";
  return content.split("\n\n").at(-1) ?? "";
}

function systemOf(body) {
  const system = (Array.isArray(body.messages) ? body.messages : []).find((message) => message.role === "system");
  return typeof system?.content === "string" ? system.content : "";
}

/** Writes `count` chunks one every `intervalMs`, then `ending`; stops if the service hangs up. */
function streamPaced(response, count, intervalMs, chunkAt, ending) {
  let index = 0;
  const timer = setInterval(() => {
    if (response.destroyed) {
      clearInterval(timer);
      return;
    }
    if (index < count) {
      response.write(chunkAt(index));
      index += 1;
      return;
    }
    clearInterval(timer);
    response.end(ending);
  }, intervalMs);
}

/**
 * Starts the server on a free loopback port. `arrivalOf(question)` is the arrival time of the chat
 * request that carried that question (questions are unique within a run), with the size of its
 * prompt; `requests` counts every request. With `pieceIntervalMs` the answer is `pieces` pieces
 * (the six above, repeated) sent one every `pieceIntervalMs`, as a model's tokens trickle in;
 * without it, the six pieces leave at once.
 */
export async function startModelServer({ pieceIntervalMs = 0, pieces = ANSWER_PIECES.length } = {}) {
  const arrivals = new Map();
  let requests = 0;
  let malformed = 0;
  const server = createServer((request, response) => {
    const arrivedAt = performance.now();
    requests += 1;
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const parts = [];
    request.on("data", (part) => parts.push(part));
    request.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {
        malformed += 1;
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad json" } }));
        return;
      }
      const system = systemOf(body);
      arrivals.set(questionOf(body), { arrivedAt, systemCharacters: system.length, grounded: system.includes("Passages:"), stream: body.stream === true });
      const id = `chatcmpl-bench-${requests}`;
      const created = Math.floor(Date.now() / 1000);
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      const ending = chunk(id, created, {}, "stop") + "data: [DONE]\n\n";
      if (pieceIntervalMs > 0) {
        streamPaced(response, pieces, pieceIntervalMs, (index) => chunk(id, created, index === 0 ? { role: "assistant", content: ANSWER_PIECES[0] } : { content: ANSWER_PIECES[index % ANSWER_PIECES.length] }), ending);
        return;
      }
      let text = chunk(id, created, { role: "assistant", content: "" });
      for (const piece of ANSWER_PIECES) text += chunk(id, created, { content: piece });
      response.end(text + ending);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    arrivalOf: (question) => arrivals.get(question),
    get requests() {
      return requests;
    },
    get malformed() {
      return malformed;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
