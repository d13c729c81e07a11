import { connect, type Socket } from "node:net";

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** True when the server closed the connection (we never close it ourselves before it does). */
  closedByServer: boolean;
}

/** The status, the headers (lower-cased names) and the body of the first response in `text`. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no complete response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = "", ...headerLines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body: text.slice(end + 4) };
}

/** Opens a TCP connection to `origin` (http://host:port). */
export function openSocket(origin: string): Promise<Socket> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * Collects what the server sends on `socket` until it closes the connection, or until `until`
 * holds for the text received so far (then `closedByServer` is false). Fails after `limitMs`.
 */
export function readUntilClosed(socket: Socket, options: { limitMs?: number; until?: (text: string) => boolean } = {}): Promise<RawExchange> {
  const { limitMs = 10_000, until } = options;
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server neither closed the connection nor answered in ${limitMs} ms; got ${JSON.stringify(text.slice(0, 300))}`));
    }, limitMs);
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners("data");
      resolve({ text, closedByServer });
    };
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (until?.(text)) finish(false);
    });
    socket.on("error", () => undefined);
    socket.once("close", () => finish(true));
  });
}

/** Writes `request` (latin1) on a new connection and reads until the server closes it. */
export async function rawRequest(origin: string, request: string | Buffer, limitMs?: number): Promise<RawExchange> {
  const socket = await openSocket(origin);
  const reading = readUntilClosed(socket, limitMs === undefined ? {} : { limitMs });
  socket.write(typeof request === "string" ? Buffer.from(request, "latin1") : request);
  return reading;
}
