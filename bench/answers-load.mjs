// The visitors of `bench/answers.mjs`: each calls POST /widget/init once, then asks questions one
// after another in its conversation, through POST /messages/stream (the model runs) or POST
// /messages (the extractive runs). Plain node:http with keep-alive, so the client costs little of
// the two cores it shares with the service. Every time is performance.now() of this process, the
// clock the model server also stamps its arrivals with.
import { Agent, request as httpRequest } from "node:http";
import { BenchFailure } from "./answers-service.mjs";

export const ORIGIN = "https://bench.test";

const agent = new Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 10_000 });

/** One POST; resolves with status, timings and the body, calling `onData` with each piece. */
function post(url, { headers, body, onData, connections = agent }) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const sentAt = performance.now();
    const request = httpRequest(url, {
      method: "POST",
      agent: connections,
      headers: { "content-type": "application/json", "content-length": payload.length, origin: ORIGIN, ...headers },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      const headersAt = performance.now();
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (piece) => {
        text += piece;
        onData?.(text, piece);
      });
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode, sentAt, headersAt, endedAt: performance.now(), text }));
    });
    request.end(payload);
  });
}

/**
 * A visitor of the bench agent: a session token from init, and one conversation. With
 * `ownConnection`, the visitor keeps a keep-alive connection of its own, opened by init, as a
 * browser does (without it, visitors share a pool of connections).
 */
export async function startVisitor(baseUrl, agentId, { ownConnection = false } = {}) {
  const connections = ownConnection ? new Agent({ keepAlive: true, maxSockets: 1, keepAliveMsecs: 10_000 }) : agent;
  const response = await post(`${baseUrl}/api/v1/widget/init`, { body: { agent_id: agentId, page_url: `${ORIGIN}/` }, connections });
  if (response.status !== 200) throw new BenchFailure(`init answered ${response.status}: ${response.text.slice(0, 300)}`);
  const { data } = JSON.parse(response.text);
  return { jwt: data.jwt, conversationId: data.conversation_id, connections };
}

const TOKEN_FRAME = '"event":"token"';

/**
 * POST /messages/stream. `firstTokenMs`: until the first `token` frame was read; `totalMs`: until
 * the stream ended. The frames are checked once it has.
 */
export async function askStreamed(baseUrl, visitor, question) {
  let firstTokenAt = null;
  let scannedUpTo = 0;
  const response = await post(`${baseUrl}/api/v1/widget/messages/stream`, {
    headers: { authorization: `Bearer ${visitor.jwt}` },
    body: { message: question },
    connections: visitor.connections,
    onData: (text) => {
      if (firstTokenAt !== null) return;
      if (text.indexOf(TOKEN_FRAME, Math.max(0, scannedUpTo - TOKEN_FRAME.length)) !== -1) firstTokenAt = performance.now();
      scannedUpTo = text.length;
    },
  });
  const result = { question, sentAt: response.sentAt, status: response.status, totalMs: response.endedAt - response.sentAt, firstTokenMs: null, error: null };
  if (response.status !== 200) return { ...result, error: `HTTP ${response.status}: ${response.text.slice(0, 200)}` };
  const frames = response.text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => JSON.parse(block.slice(6)));
  const done = frames.find((frame) => frame.event === "done");
  const failure = frames.find((frame) => frame.event === "error");
  const tokens = frames.filter((frame) => frame.event === "token").length;
  return {
    ...result,
    firstTokenMs: firstTokenAt === null ? null : firstTokenAt - response.sentAt,
    tokens,
    lowConfidence: done?.low_confidence ?? null,
    error: failure ? `${failure.code}: ${failure.message}` : done ? (tokens === 0 ? "no token frame" : null) : "no done frame",
  };
}

/** POST /messages: the whole answer in one JSON body. */
export async function askSync(baseUrl, visitor, question) {
  const response = await post(`${baseUrl}/api/v1/widget/messages`, { headers: { authorization: `Bearer ${visitor.jwt}` }, body: { message: question }, connections: visitor.connections });
  const result = { question, sentAt: response.sentAt, status: response.status, totalMs: response.endedAt - response.sentAt, error: null };
  if (response.status !== 200) return { ...result, error: `HTTP ${response.status}: ${response.text.slice(0, 200)}` };
  const { data } = JSON.parse(response.text);
  return { ...result, lowConfidence: data.low_confidence, characters: data.content.length, citations: data.citations.length };
}

async function inBatches(count, batchSize, make) {
  const made = [];
  for (let start = 0; start < count; start += batchSize) {
    made.push(...(await Promise.all(Array.from({ length: Math.min(batchSize, count - start) }, () => make()))));
  }
  return made;
}

/**
 * Runs visitors against `ask`: `visitors` loops at once (each with its own init first, not
 * timed), each asking until it has asked `questionsPerVisitor` questions or `durationMs` has
 * passed since the first question. Requests started before the deadline are all waited for.
 * `onStart` is awaited once every visitor has its session, before the first question;
 * `ownConnections` gives each visitor a connection of its own (see startVisitor).
 */
export async function runVisitors({ baseUrl, agentId, visitors, questionsPerVisitor = Infinity, durationMs = Infinity, questions, ask, onStart, ownConnections = false }) {
  const sessions = await inBatches(visitors, 8, () => startVisitor(baseUrl, agentId, { ownConnection: ownConnections }));
  await onStart?.();
  const startedAt = performance.now();
  const deadline = startedAt + durationMs;
  const results = [];
  await Promise.all(
    sessions.map(async (session) => {
      for (let asked = 0; asked < questionsPerVisitor && performance.now() < deadline; asked += 1) {
        try {
          results.push(await ask(baseUrl, session, questions.next()));
        } catch (error) {
          results.push({ sentAt: performance.now(), status: 0, totalMs: null, error: error.message });
        }
      }
    }),
  );
  return { results, wallMs: performance.now() - startedAt };
}
