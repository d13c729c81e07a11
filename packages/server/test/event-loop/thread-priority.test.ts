import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort, startServer, stopServer } from "../cli/cli-process.js";
import { compiledWorkerUrl } from "../support/compiled-worker.js";
import { dataDirWithMigratedStore } from "../support/test-database.js";

const run = promisify(execFile);
const modulePath = compiledWorkerUrl("event-loop/thread-priority.js").href;

/** Each thread's niceness (field 19 of /proc/<pid>/task/<tid>/stat), by thread id. */
function nicenessOfThreads(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const entry of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${entry}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    threads.set(Number(entry), Number(fields[16]));
  }
  return threads;
}

describe.runIf(process.platform === "linux")("thread priority (happy)", () => {
  test("every thread but the event loop's is lowered to nice 10, and the event loop keeps its priority", async () => {
    // In a process of its own: the test runner's threads are not ours to change.
    const script = `
      import { lowerOtherThreadsPriority } from ${JSON.stringify(modulePath)};
      import { readdirSync, readFileSync } from "node:fs";
      const lowered = lowerOtherThreadsPriority();
      const nice = {};
      for (const tid of readdirSync("/proc/self/task")) {
        const stat = readFileSync("/proc/self/task/" + tid + "/stat", "utf8");
        nice[tid] = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
      }
      console.log(JSON.stringify({ pid: process.pid, lowered, nice }));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    const { pid, lowered, nice } = JSON.parse(stdout) as { pid: number; lowered: number; nice: Record<string, number> };
    expect(nice[String(pid)]).toBe(0);
    const others = Object.entries(nice).filter(([tid]) => Number(tid) !== pid);
    expect(others.length).toBeGreaterThanOrEqual(4); // V8's platform threads at least
    expect(lowered).toBe(others.length);
    expect(others.every(([, niceness]) => niceness === 10)).toBe(true);
  });

  test("a worker thread lowers its own priority and no other thread's", async () => {
    // An eval'd worker inherits --input-type=module: its code is a module too. It reads both
    // niceness values itself, while it still runs.
    const script = `
      import { Worker } from "node:worker_threads";
      const worker = new Worker(\`
        import { parentPort } from "node:worker_threads";
        import { readFileSync } from "node:fs";
        import { lowerOwnThreadPriority } from ${JSON.stringify(modulePath)};
        const niceOf = (path) => { const stat = readFileSync(path, "utf8"); return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]); };
        const lowered = lowerOwnThreadPriority();
        parentPort.postMessage({ lowered, worker: niceOf("/proc/thread-self/stat"), main: niceOf("/proc/" + process.pid + "/task/" + process.pid + "/stat") });
      \`, { eval: true });
      worker.once("message", (figures) => console.log(JSON.stringify(figures)));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ lowered: true, worker: 10, main: 0 });
  });
});

describe.runIf(process.platform === "linux")("frontdesk serve's threads (happy)", () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore("pglite"), FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_PROVIDER: "hashing" };
  });
  const servers: Array<Parameters<typeof stopServer>[0]> = [];
  afterAll(async () => {
    for (const server of servers) await stopServer(server);
  });

  test("the event loop runs at the process's priority; V8's helper threads (started before serve) at nice 10", async () => {
    const port = await freePort();
    const { child } = await startServer(env, port);
    servers.push(child);
    const threads = nicenessOfThreads(child.pid!);
    expect(threads.get(child.pid!)).toBe(0);
    const lowered = [...threads.entries()].filter(([tid, niceness]) => tid !== child.pid && niceness === 10);
    expect(lowered.length).toBeGreaterThanOrEqual(4);
  });
});
