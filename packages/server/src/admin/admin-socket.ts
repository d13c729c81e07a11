import { chmod, unlink } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ErrorBody } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { AdminCommandInput } from "./admin-command.js";
import { runAdminCommand, type AdminContext } from "./run-admin-command.js";

/**
 * PGlite is single-process, so while `serve` runs, admin commands reach the store through it:
 * a Unix socket in the data dir, mode 0600 (only the owner can connect). One JSON line in,
 * one JSON line out.
 */
export function adminSocketPath(dataDir: string): string {
  return join(dataDir, "admin.sock");
}

export type AdminReply = { ok: true; result: unknown } | ({ ok: false } & ErrorBody);

export function errorReply(error: unknown): AdminReply {
  if (error instanceof AppError) {
    return { ok: false, error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } };
  }
  return { ok: false, error: { code: "internal_error", message: error instanceof Error ? error.message : String(error) } };
}

/** True when a server is accepting on the socket. */
export function isSocketLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function listenAdminSocket(context: AdminContext, dataDir: string): Promise<Server> {
  const path = adminSocketPath(dataDir);
  if (await isSocketLive(path)) throw new Error(`Another Frontdesk server is already running on ${dataDir} (${path}).`);
  await unlink(path).catch(() => undefined);
  const server = createServer((socket) => {
    const lines = createInterface({ input: socket });
    lines.on("line", (line) => {
      void (async () => {
        let reply: AdminReply;
        try {
          reply = { ok: true, result: await runAdminCommand(context, JSON.parse(line) as AdminCommandInput) };
        } catch (error) {
          reply = errorReply(error);
        }
        socket.end(`${JSON.stringify(reply)}\n`);
      })();
    });
    socket.on("error", () => undefined);
  });
  const previousMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(previousMask);
  }
  await chmod(path, 0o600);
  return server;
}

/** Sends one command to a running server; null when none is listening. */
export function sendAdminCommand(dataDir: string, command: AdminCommandInput): Promise<AdminReply | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(adminSocketPath(dataDir));
    let buffer = "";
    let connected = false;
    socket.setEncoding("utf8");
    socket.once("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify(command)}\n`);
    });
    socket.on("data", (chunk: string) => (buffer += chunk));
    socket.once("end", () => {
      try {
        resolve(JSON.parse(buffer) as AdminReply);
      } catch {
        reject(new Error("The running server sent an unreadable admin reply."));
      }
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED")) resolve(null);
      else reject(error);
    });
  });
}
