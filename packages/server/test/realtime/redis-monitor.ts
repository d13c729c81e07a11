import { spawn, type ChildProcess } from "node:child_process";

/** A command Redis executed, as MONITOR reports it: sent by a client (its address) or by a script (`lua`). */
export interface Executed {
  args: string[];
  source: string;
}

/** `redis-cli monitor`: every command Redis executes, appended to `executed` as it arrives. */
export function monitorRedis(url: string, executed: Executed[]): ChildProcess {
  const { hostname, port } = new URL(url);
  const child = spawn("redis-cli", ["-h", hostname, "-p", port || "6379", "monitor"], { stdio: ["ignore", "pipe", "ignore"] });
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      // 1795476910.832638 [0 127.0.0.1:33610] "evalsha" "dc23…" "1" "key"
      const match = /^\S+ \[\d+ ([^\]]+)\] (.*)$/.exec(line.trim());
      if (!match) continue;
      const args = [...(match[2] ?? "").matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((quoted) => quoted[1] ?? "");
      executed.push({ source: match[1] ?? "", args });
    }
  });
  return child;
}

