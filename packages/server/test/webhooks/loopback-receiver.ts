import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** How the receiver answers a request on one path: the request, and how many came to that path before it. */
export type Behaviour = (response: ServerResponse, index: number) => void;

/** A real HTTP server on 127.0.0.1 standing in for a customer's webhook receiver. */
export class LoopbackReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly held = new Set<ServerResponse>();
  private server: Server | null = null;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** `path` answers as `behaviour` says (200 "ok" by default). */
  on(path: string, behaviour: Behaviour): string {
    this.behaviours.set(path, behaviour);
    return `${this.url}${path}`;
  }

  at(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Keeps the response open until the test ends it (a receiver that hangs). */
  hold(response: ServerResponse): void {
    this.held.add(response);
  }

  release(): void {
    for (const response of this.held) response.end("late");
    this.held.clear();
  }

  async close(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const index = this.at(path).length;
      this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const behaviour = this.behaviours.get(path);
      if (behaviour) behaviour(response, index);
      else response.end("ok");
    });
  }
}
