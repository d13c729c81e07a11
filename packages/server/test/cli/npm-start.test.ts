import { readdir, readlink } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { dataDirWithMigratedStore } from "../support/test-database.js";
import { run } from "./cli-process.js";
import { watch } from "./frontdesk-process.js";

const REPOSITORY = fileURLToPath(new URL("../../../../", import.meta.url));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes with a file open under `directory` (Linux /proc). */
async function holdersOf(directory: string): Promise<number[]> {
  const holders: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const descriptors = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const descriptor of descriptors) {
      const target = await readlink(`/proc/${entry}/fd/${descriptor}`).catch(() => "");
      if (target.startsWith(directory)) {
        holders.push(Number(entry));
        break;
      }
    }
  }
  return holders;
}

/**
 * `npm start` as a person runs it, stopped the two ways a person stops it. `--ignore-scripts` only
 * skips `prestart` (the build, which the test run has done): the start script and npm's handling
 * of signals are the same.
 */
describe("npm start", () => {
  const stops: { name: string; stop: (npmPid: number) => void }[] = [
    { name: "SIGTERM to npm", stop: (npmPid) => process.kill(npmPid, "SIGTERM") },
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    { name: "Ctrl-C (SIGINT to the process group)", stop: (npmPid) => process.kill(-npmPid, "SIGINT") },
  ];
  for (const { name, stop } of stops) {
    it(`happy: ${name} stops the service gracefully and leaves nothing holding the data dir`, async () => {
      // A store made before (first starts have tests of their own): the subject is the stop.
      const dataDir = await dataDirWithMigratedStore("pglite", "frontdesk-npm-start-");
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("FRONTDESK_")));
      const env = { FRONTDESK_DATA_DIR: dataDir, FRONTDESK_PORT: "0", FRONTDESK_EMBEDDINGS_PROVIDER: "hashing", FRONTDESK_LOG_LEVEL: "info" };
      const npm = watch("npm", ["start", "--ignore-scripts"], { cwd: REPOSITORY, env: { ...inherited, ...env }, detached: true });
      const streamsClosed = new Promise<void>((resolve) => npm.child.stdout?.once("close", () => resolve()));
      try {
        await npm.waitFor(/Frontdesk is listening/, 90_000);
        const servicePid = Number(/"pid":(\d+)[^\n]*Frontdesk is listening/.exec(npm.output())?.[1]);
        expect(servicePid).toBeGreaterThan(0);
        expect(servicePid).not.toBe(npm.child.pid);

        stop(npm.child.pid!);
        await npm.exit(30_000);
        // The service's output shares npm's pipe: it closes once the service has exited too.
        await Promise.race([streamsClosed, new Promise((_, reject) => setTimeout(() => reject(new Error(`the service outlived npm:\n${npm.output()}`)), 30_000))]);
        expect(isRunning(servicePid), npm.output()).toBe(false);
        expect(npm.output()).toMatch(/"msg":"shutting down"/);
        expect(npm.output()).toMatch(/"msg":"stopped"/);
        expect(await holdersOf(dataDir)).toEqual([]);
        // The embedded store opens again at once: nothing kept it.
        const migrate = await run(env, "migrate");
        expect(migrate.code, migrate.stderr).toBe(0);
      } finally {
        // Whatever is left of the group (nothing, when the test passes).
        try {
          process.kill(-npm.child.pid!, "SIGKILL");
        } catch {
          // the group is empty
        }
      }
    }, 180_000);
  }
});
