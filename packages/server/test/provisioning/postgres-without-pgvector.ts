import { createServer, type Server, type Socket } from "node:net";

/**
 * A loopback server speaking just enough of the Postgres protocol (trust start-up, simple queries)
 * to stand for a Postgres 15 WITHOUT pgvector: every query returns one row, `major` = 15 and
 * `vector` = false, the answer the provisioning probe gets from a fresh machine's server. The
 * machine's own Postgres has pgvector, and uninstalling it would break everyone's tests.
 */
export interface PostgresWithoutPgvector {
  url: string;
  port: number;
  /** The queries it was sent, in order. */
  queries: string[];
  close(): Promise<void>;
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
const int16 = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]);
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};
const cstring = (text: string) => Buffer.from(`${text}\0`, "utf8");

const readyForQuery = message("Z", Buffer.from("I"));
const INT4 = 23;
const BOOL = 16;

function column(name: string, typeOid: number, length: number): Buffer {
  return Buffer.concat([cstring(name), int32(0), int16(0), int32(typeOid), int16(length), int32(-1), int16(0)]);
}
function cell(text: string): Buffer {
  return Buffer.concat([int32(Buffer.byteLength(text)), Buffer.from(text)]);
}

const answer = Buffer.concat([
  message("T", Buffer.concat([int16(2), column("major", INT4, 4), column("vector", BOOL, 1)])),
  message("D", Buffer.concat([int16(2), cell("15"), cell("f")])),
  message("C", cstring("SELECT 1")),
  readyForQuery,
]);

function serve(socket: Socket, queries: string[]): void {
  let pending = Buffer.alloc(0);
  let started = false;
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (!started) {
        if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
        pending = pending.subarray(pending.readInt32BE(0));
        started = true;
        socket.write(Buffer.concat([message("R", int32(0)), message("S", Buffer.concat([cstring("server_version"), cstring("15.0")])), readyForQuery]));
        continue;
      }
      if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) return;
      const type = String.fromCharCode(pending[0]!);
      const body = pending.subarray(5, 1 + pending.readInt32BE(1));
      pending = pending.subarray(1 + pending.readInt32BE(1));
      if (type === "Q") {
        queries.push(body.toString("utf8").replace(/\0$/, ""));
        socket.write(answer);
      } else if (type === "X") {
        socket.end();
        return;
      }
    }
  });
}

/** Listens on `port` (0: any free port). */
export async function startPostgresWithoutPgvector(port = 0): Promise<PostgresWithoutPgvector> {
  const queries: string[] = [];
  const server: Server = createServer((socket) => serve(socket, queries));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const listening = typeof address === "object" && address ? address.port : 0;
  return {
    url: `postgres://postgres@127.0.0.1:${listening}/postgres`,
    port: listening,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Connections still open (none, normally) must not keep the test waiting.
        server.unref();
      }),
  };
}
