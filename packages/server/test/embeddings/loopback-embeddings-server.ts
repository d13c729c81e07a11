import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: { model?: unknown; input?: unknown; dimensions?: unknown };
}

interface ScriptedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface LoopbackEmbeddingsServer {
  /** e.g. `http://127.0.0.1:40123` */
  origin: string;
  requests: RecordedRequest[];
  /** The next requests get these answers, in order, before normal service resumes. */
  answerNextWith(...answers: ScriptedAnswer[]): void;
  /** Holds every request until `resume()` (a slow server, to look at what happens meanwhile). */
  pause(): void;
  resume(): void;
  /** Requests held by `pause()` now. */
  readonly held: number;
  close(): Promise<void>;
}

/**
 * The vector the server returns for a text: derived from its characters, deliberately not
 * unit length, so tests can tell that the client normalises and keeps texts apart.
 */
export function serverVector(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, position) => ((text.codePointAt(position % Math.max(text.length, 1)) ?? 7) % 13) + 1);
}

/** OpenAI's error body shape. */
export function openAiError(message: string, type = "invalid_request_error"): unknown {
  return { error: { message, type, param: null, code: null } };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/**
 * An OpenAI-compatible `POST /v1/embeddings` on loopback, answering in the shape of
 * OpenAI's documented response (`object`, `data[].index`, `model`, `usage`), with `data`
 * in reverse order so that clients must sort by `index`.
 */
export async function startLoopbackEmbeddingsServer(options: {
  apiKey: string;
  model: string;
  dimensions: number;
}): Promise<LoopbackEmbeddingsServer> {
  const requests: RecordedRequest[] = [];
  const scripted: ScriptedAnswer[] = [];
  let paused = false;
  const waiting: (() => void)[] = [];

  const server = createServer((request, response) => {
    void (async () => {
      const body = (await readJson(request)) as RecordedRequest["body"];
      if (paused) await new Promise<void>((resolve) => waiting.push(resolve));
      requests.push({ method: request.method ?? "", path: request.url ?? "", authorization: request.headers.authorization, body });
      const next = scripted.shift();
      if (next !== undefined) return send(response, next.status, next.body, next.headers);
      if (request.method !== "POST" || request.url !== "/v1/embeddings") return send(response, 404, openAiError("not found"));
      if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(response, 401, openAiError("Incorrect API key provided", "invalid_api_key"));
      }
      if (body.model !== options.model) return send(response, 404, openAiError(`The model ${String(body.model)} does not exist`));
      const input = body.input;
      if (!Array.isArray(input) || !input.every((text) => typeof text === "string")) {
        return send(response, 400, openAiError("'input' must be an array of strings"));
      }
      if (body.dimensions !== undefined && body.dimensions !== options.dimensions) {
        return send(response, 400, openAiError(`dimensions ${String(body.dimensions)} is not supported`));
      }
      const data = input.map((text, index) => ({ object: "embedding", index, embedding: serverVector(text, options.dimensions) }));
      const tokens = input.reduce((total, text) => total + text.split(/\s+/).length, 0);
      send(response, 200, {
        object: "list",
        data: data.reverse(),
        model: options.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    })().catch((error: unknown) => send(response, 500, openAiError(String(error), "server_error")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    answerNextWith: (...answers) => scripted.push(...answers),
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      for (const release of waiting.splice(0)) release();
    },
    get held() {
      return waiting.length;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const release of waiting.splice(0)) release();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
