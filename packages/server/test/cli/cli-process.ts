import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect } from "vitest";
import { killedWithTestProcess } from "../support/child-processes.js";

export const BIN = fileURLToPath(new URL("../../../../bin/frontdesk", import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Commands that run to completion and leave nothing behind: run in this process, as bin/frontdesk would run them. */
const IN_PROCESS = new Set(["admin", "migrate", "reindex"]);

/**
 * Runs `bin/frontdesk …` to completion with only the given environment (and PATH). The short
 * commands (`admin`, `migrate`, `reindex`) run in this test process, through the built CLI's
 * runCommandLine that bin/frontdesk calls (about 1.5 s less each than a new Node process loading
 * the service); the others, and any run that asks for it, in a process of their own.
 */
export async function run(env: Record<string, string>, ...args: string[]): Promise<Run> {
  if (IN_PROCESS.has(args[0] ?? "")) return runInProcess({ PATH: process.env.PATH ?? "", ...env }, args);
  return runProcess(env, ...args);
}

/** `bin/frontdesk …` in a process of its own, whatever the command. */
export function runProcess(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    killedWithTestProcess(
      execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      }),
    );
  });
}

type CommandLine = (argv: string[], environment: NodeJS.ProcessEnv, output: { out(text: string): void; err(text: string): void }) => Promise<number>;
let commandLine: Promise<CommandLine> | null = null;

async function runInProcess(env: Record<string, string>, args: string[]): Promise<Run> {
  // The built CLI, as bin/frontdesk loads it: its worker threads' files sit beside it in dist/.
  commandLine ??= import(pathToFileURL(join(dirname(BIN), "..", "packages", "server", "dist", "cli", "main.js")).href).then(
    (module: { runCommandLine: CommandLine }) => module.runCommandLine,
  );
  let stdout = "";
  let stderr = "";
  const code = await (await commandLine)(args, env, { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** The admin CLI prints exactly one JSON value on stdout. */
export function json(result: Run): Record<string, unknown> & { id: string } {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown> & { id: string };
}

/** Starts `bin/frontdesk serve` and waits until /healthz answers (a bound of 60 s for a stuck start, not a speed requirement). */
export async function startServer(env: Record<string, string>, port: number): Promise<{ child: ChildProcess; log: () => string }> {
  // Killed when this test process ends, so a timed-out test leaves no orphan holding a port or a data dir.
  const child = killedWithTestProcess(
    spawn(process.execPath, [BIN, "serve", "--host", "127.0.0.1", "--port", String(port)], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let log = "";
  child.stderr?.on("data", (chunk) => (log += chunk));
  child.stdout?.on("data", (chunk) => (log += chunk));
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${log}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return { child, log: () => log };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`serve did not become healthy: ${log}`);
}

export async function stopServer(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}
