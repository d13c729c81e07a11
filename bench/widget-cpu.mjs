// CPU accounting for bench/widget.mjs (Linux /proc): how much CPU the benchmark's own processes used
// during a run, and how much everything else on the machine did — a shared machine skews figures.
import { readdir, readFile } from "node:fs/promises";

const USER_HZ = 100; // the tick rate of /proc/<pid>/stat on Linux
const CLIENT_BACKEND = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/;

async function readText(path) {
  return readFile(path, "utf8").catch(() => null);
}

async function machineTicks() {
  const text = await readText("/proc/stat");
  if (!text) return null;
  const fields = text.split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Every process's CPU ticks so far, with its command line; null where there is no /proc. */
export async function snapshotCpu() {
  const machine = await machineTicks();
  if (!machine) return null;
  const processes = new Map();
  const pids = (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry));
  await Promise.all(
    pids.map(async (pid) => {
      const [stat, cmdline] = await Promise.all([readText(`/proc/${pid}/stat`), readText(`/proc/${pid}/cmdline`)]);
      if (!stat) return;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      let ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      // The bench's own entry also counts its reaped children (cutime + cstime): wrk has exited by the
      // time the run's closing snapshot is taken.
      if (Number(pid) === process.pid) ticks += Number(fields[13]) + Number(fields[14]);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      processes.set(Number(pid), { ticks, name, command: (cmdline ?? "").replaceAll("\0", " ").trim() });
    }),
  );
  return { at: Date.now(), machine, processes };
}

/**
 * Sorts a process into `ours` (the bench, its server, wrk or pgbench, the bench database's backends), `shared`
 * (kernel threads, Redis, Postgres's own background processes) or `others` (anything else: other
 * people's work on the machine).
 */
export function processClassifier({ serverPid, databaseName, port }) {
  return (pid, command) => {
    if (pid === process.pid || pid === serverPid) return "ours";
    if (command === "") return "shared"; // kernel threads
    if (command.startsWith("wrk ") && command.includes(`:${port}`)) return "ours";
    if (command.startsWith("pgbench ") && command.includes(databaseName)) return "ours"; // bench/init-ratio.mjs
    if (command.startsWith("postgres: ")) {
      if (command.includes(databaseName)) return "ours";
      return CLIENT_BACKEND.test(command) ? "others" : "shared";
    }
    if (command.includes("redis-server") || /\/bin\/postgres\b/.test(command)) return "shared";
    return "others";
  };
}

/** CPU used between two snapshots: the machine's busy share, and ours/shared/others/server in % of one core. */
export function cpuBetween(before, after, classify, serverPid) {
  if (!before || !after) return null;
  const seconds = (after.at - before.at) / 1000;
  const used = { ours: 0, shared: 0, others: 0, server: 0 };
  const othersByProcess = [];
  for (const [pid, { ticks, name, command }] of after.processes) {
    const delta = ticks - (before.processes.get(pid)?.ticks ?? 0);
    if (delta <= 0) continue;
    const kind = classify(pid, command);
    used[kind] += delta;
    if (pid === serverPid) used.server += delta;
    if (kind === "others") othersByProcess.push({ delta, command: (command || name).slice(0, 80) });
  }
  const percentOfOneCore = (ticks) => Math.round((ticks / USER_HZ / seconds) * 100);
  const busiestOthers = othersByProcess
    .sort((a, b) => b.delta - a.delta)
    .slice(0, 3)
    .map(({ delta, command }) => ({ percentOfOneCore: percentOfOneCore(delta), command }))
    .filter((entry) => entry.percentOfOneCore >= 1);
  return {
    machineBusyPercent: Math.round(((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * 100),
    serverPercentOfOneCore: percentOfOneCore(used.server),
    oursPercentOfOneCore: percentOfOneCore(used.ours),
    sharedPercentOfOneCore: percentOfOneCore(used.shared),
    othersPercentOfOneCore: percentOfOneCore(used.others),
    busiestOthers,
  };
}

/** Others' CPU (in % of one core) over the next `milliseconds`, or null without /proc. */
export async function othersCpuOver(milliseconds, classify) {
  const before = await snapshotCpu();
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  const after = await snapshotCpu();
  return cpuBetween(before, after, classify, -1)?.othersPercentOfOneCore ?? null;
}
