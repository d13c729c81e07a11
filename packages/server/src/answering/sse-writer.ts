import type { StreamFrame } from "@frontdesk/contracts";
import type { FastifyReply } from "fastify";

export const HEARTBEAT_MS = 15_000;

/**
 * The least time between two socket writes of one stream. A model sends a token every 10–30 ms,
 * each in its own network read; written one by one, 500 streams make 20,000 socket writes a second
 * and the writes alone fill the event loop. Gathered for 50 ms they are two to five times fewer,
 * and a reader sees no difference. The first frame of a quiet stream leaves at once.
 */
export const WRITE_INTERVAL_MS = 50;

/**
 * A Server-Sent Events response on a hijacked reply: `data: <json>` frames each followed by a
 * blank line, a comment line every 15 s so proxies keep a slow answer open, and `closed` once
 * the client has gone. The Connection header is Node's: `keep-alive` unless the client asked to
 * close (or speaks HTTP/1.0), and then the socket closes after the last frame.
 */
export class SseWriter {
  private readonly heartbeat: NodeJS.Timeout;
  private clientGone = false;
  private pending: string[] = [];
  private flushScheduled = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private lastWriteAt = -Infinity;

  constructor(
    private readonly reply: FastifyReply,
    onClientGone: () => void,
    heartbeatMs = HEARTBEAT_MS,
    private readonly writeIntervalMs = WRITE_INTERVAL_MS,
  ) {
    reply.hijack();
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
    reply.raw.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    reply.raw.flushHeaders();
    reply.raw.on("close", () => {
      if (!reply.raw.writableFinished) {
        this.clientGone = true;
        onClientGone();
      }
    });
    this.heartbeat = setInterval(() => this.write(": keep-alive\n\n"), heartbeatMs);
  }

  get closed(): boolean {
    return this.clientGone;
  }

  send(frame: StreamFrame): void {
    this.write(`data: ${JSON.stringify(frame)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    clearTimeout(this.flushTimer);
    this.flush();
    if (!this.clientGone) this.reply.raw.end();
  }

  /**
   * Frames written in one burst (a model's tokens arriving in one network read, then citations
   * and done) leave in one socket write: they are gathered until the current tick's work is done,
   * and, within `writeIntervalMs` of the last write, until that interval has passed.
   */
  private write(chunk: string): void {
    if (this.clientGone || this.reply.raw.writableEnded) return;
    this.pending.push(chunk);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const wait = this.lastWriteAt + this.writeIntervalMs - performance.now();
    if (wait <= 0) process.nextTick(() => this.flush());
    else this.flushTimer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.flushScheduled = false;
    this.flushTimer = undefined;
    if (this.pending.length === 0) return;
    this.lastWriteAt = performance.now();
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join("");
    this.pending = [];
    if (!this.clientGone && !this.reply.raw.writableEnded) this.reply.raw.write(chunk);
  }
}
