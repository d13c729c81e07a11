import { afterAll, beforeAll, beforeEach } from "vitest";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One step of a scripted response body. */
export type ResponseStep =
  /** Writes these bytes (e.g. one SSE event) and flushes them. */
  | { write: string }
  /** Pauses before the next step. */
  | { pauseMs: number }
  /** Waits until the test resolves this promise (e.g. once a browser has shown what came before). */
  | { until: Promise<unknown> }
  /** Writes nothing more until the client goes away. */
  | { stall: true }
  /** Drops the connection without ending the response, as a crashed upstream would. */
  | { destroy: true };

export interface ScriptedResponse {
  status: number;
  headers: Record<string, string>;
  steps: ResponseStep[];
}

export interface RecordedChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /**
   * Resolves when the connection closes: `finished` is true when the server ended the response
   * itself, false when the client went away (or the script dropped the connection) first.
   */
  closed: Promise<{ finished: boolean }>;
}

export interface LoopbackChatServer {
  /** e.g. `http://127.0.0.1:40123` */
  origin: string;
  requests: RecordedChatRequest[];
  /** The next requests get these responses, in order; an unscripted request gets a 500. */
  respondWith(...responses: ScriptedResponse[]): void;
  close(): Promise<void>;
}

function pause(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

async function play(response: ServerResponse, scripted: ScriptedResponse, gone: Promise<void>): Promise<void> {
  response.writeHead(scripted.status, scripted.headers);
  response.flushHeaders();
  for (const step of scripted.steps) {
    if (response.destroyed) return;
    if ("write" in step) response.write(step.write);
    else if ("pauseMs" in step) await pause(step.pauseMs);
    else if ("until" in step) await Promise.race([step.until, gone]);
    else if ("stall" in step) {
      await gone;
      return;
    } else {
      response.destroy();
      return;
    }
  }
  response.end();
}

/**
 * A model server on loopback that plays scripted responses (status, headers, body written step by
 * step) and records every request with its parsed JSON body and how its connection ended. It
 * speaks whatever the scripts say: OpenAI's chat completions or Anthropic's Messages stream.
 */
export async function startLoopbackChatServer(): Promise<LoopbackChatServer> {
  const requests: RecordedChatRequest[] = [];
  const scripted: ScriptedResponse[] = [];

  const server = createServer((request, response) => {
    let markClosed: (result: { finished: boolean }) => void = () => {};
    const closed = new Promise<{ finished: boolean }>((resolve) => {
      markClosed = resolve;
    });
    const gone = closed.then(() => undefined);
    response.on("close", () => markClosed({ finished: response.writableFinished }));
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      const body = (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>;
      requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body, closed });
      const next = scripted.shift() ?? {
        status: 500,
        headers: { "content-type": "application/json" },
        steps: [{ write: JSON.stringify({ error: { message: "No scripted response left", type: "server_error" } }) }],
      };
      await play(response, next, gone);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respondWith: (...responses) => scripted.push(...responses),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * One loopback chat server for a test file: started before its tests, closed after, its recorded
 * requests cleared before each test. The object returned stands for the started server.
 */
export function useLoopbackChatServer(): LoopbackChatServer {
  let started: LoopbackChatServer | null = null;
  beforeAll(async () => {
    started = await startLoopbackChatServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => {
    if (started) started.requests.length = 0;
  });
  return new Proxy({} as LoopbackChatServer, {
    get(_target, member) {
      if (!started) throw new Error("the loopback chat server is started in beforeAll");
      const value: unknown = Reflect.get(started, member);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}

/** A scripted streamed response with these headers: each event written in turn, then `extraSteps`. */
export function streamedWith(headers: Record<string, string>): (events: readonly string[], extraSteps?: readonly ResponseStep[]) => ScriptedResponse {
  return (events, extraSteps = []) => ({ status: 200, headers, steps: [...events.map((write) => ({ write })), ...extraSteps] });
}
