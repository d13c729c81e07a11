import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { killedWithTestProcess } from "./child-processes.js";

/** A port nothing listens on (the OS gave it, and it was closed again). */
export function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * A `redis-server` child process of the test's own, on a port of its own, that the test may kill
 * and start again (never the machine's Redis, which other tests share). No persistence.
 */
export class ThrowawayRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await unusedPort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on the same port; resolves once it accepts connections. */
  async restart(): Promise<void> {
    const child = killedWithTestProcess(
      spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      child.stdout?.on("data", (data: Buffer) => {
        output += data.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void {
    this.child?.kill("SIGSTOP");
  }

  /** Lets a frozen server run again (SIGCONT). */
  resume(): void {
    this.child?.kill("SIGCONT");
  }

  /** Kills the server at once (SIGKILL, like a crash) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    child.removeAllListeners("exit");
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  }
}
