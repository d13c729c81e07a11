import Fastify, { type FastifyInstance } from "fastify";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseWriter } from "../../src/answering/sse-writer.js";

// The socket writes of one stream: frames within WRITE_INTERVAL_MS of the last write wait for it.
let app: FastifyInstance;
let origin: string;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  app = Fastify();
  app.post("/tokens", async (_request, reply) => {
    const sse = new SseWriter(reply, () => {}, 60_000, 1_000);
    for (const token of ["One", " two", " three", " four", " five"]) {
      sse.send({ event: "token", token });
      await pause(5);
    }
    sse.send({ event: "done", conversation_id: "c" });
    sse.end();
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
});

/** The body's pieces as the client read them (one per chunk of the chunked response). */
function readPieces(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${origin}/tokens`, { method: "POST" }, (response) => {
      const pieces: string[] = [];
      response.setEncoding("utf8");
      response.on("data", (piece: string) => pieces.push(piece));
      response.on("end", () => resolve(pieces));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

describe("SseWriter (happy)", () => {
  it("writes the first frame at once and gathers the frames that follow within the interval into one write", async () => {
    const pieces = await readPieces();
    expect(pieces[0]).toBe('data: {"event":"token","token":"One"}\n\n');
    // Four tokens and done came within the 1 s interval: one write, at the end.
    expect(pieces.slice(1)).toEqual([
      'data: {"event":"token","token":" two"}\n\ndata: {"event":"token","token":" three"}\n\ndata: {"event":"token","token":" four"}\n\n' +
        'data: {"event":"token","token":" five"}\n\ndata: {"event":"done","conversation_id":"c"}\n\n',
    ]);
  });
});
