import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { killedWithTestProcess } from "../support/child-processes.js";
import { adminPostgresUrl } from "../support/test-database.js";
import { createTestPostgresDatabase } from "../support/store-templates.js";
import { testDatabasePrefix } from "../support/test-database-sweep.js";
import { BIN } from "./cli-process.js";

/** A child process whose output is kept, with a way to wait for a line and for its exit. */
export interface WatchedProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves when the output matches; rejects if the process exits first or `timeoutMs` passes. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code (or the signal's name); rejects when the process outlives `timeoutMs`. */
  exit(timeoutMs?: number): Promise<number | string>;
}

/** Spawns a command, keeping stdout and stderr together; the child is killed when the test process ends. */
export function watch(command: string, args: string[], options: SpawnOptions): WatchedProcess {
  const child = killedWithTestProcess(spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options }));
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const within = <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
      promise.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 30_000) {
      const seen = new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
        void exited.then((code) => reject(new Error(`exited (${code}) before printing ${pattern}; output:\n${output}`)));
      });
      return within(seen, timeoutMs, `no ${pattern}`);
    },
    exit: (timeoutMs = 30_000) => within(exited, timeoutMs, "did not exit"),
  };
}

/** Spawns `bin/frontdesk …` with only the given environment (and PATH). */
export function frontdesk(env: Record<string, string>, ...args: string[]): WatchedProcess {
  return watch(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
}

/** A brand-new, empty database on the machine's Postgres (no migration applied), and how to drop it. */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${testDatabasePrefix()}${randomBytes(6).toString("hex")}`;
  const admin = async (work: (client: pg.Client) => Promise<unknown>) => {
    const client = new pg.Client({ connectionString: adminPostgresUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  };
  await admin((client) => createTestPostgresDatabase(client, name));
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** pino's JSON lines at level error (50) or above. */
export function errorLines(output: string): string[] {
  return output.split("\n").filter((line) => /"level":(5\d|60)\b/.test(line) || /"error":\{/.test(line));
}
