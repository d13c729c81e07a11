import { readFile, unlink, writeFile } from "node:fs/promises";

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === "EPERM";
  }
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, holder: number) {
    super(
      `Another Frontdesk process (pid ${holder}) is using the embedded store in ${dataDir}: stop it first, ` +
        "or run the admin command while it runs (it goes through that process), or set FRONTDESK_DATABASE_URL to share a Postgres between processes.",
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * PGlite is one process's store: two processes writing one data directory would corrupt it. The
 * first to open it writes its pid to `{data dir}.pid` beside it (created exclusively); another process is refused
 * while that pid runs. A pid file left by a killed process is taken over at once, which a lock
 * refreshed on a timer (proper-lockfile) would only allow after its staleness delay. Two processes
 * taking over the same stale file in the same instant is the one case this does not settle.
 * Returns the release.
 */
export async function lockPgliteDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = `${dataDir.replace(/\/+$/, "")}.pid`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      return async () => {
        const holder = await readFile(path, "utf8").catch(() => "");
        if (Number(holder.trim()) === process.pid) await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if (codeOf(error) !== "EEXIST" || attempt >= 2) throw error;
    }
    const holder = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    await unlink(path).catch((error: unknown) => {
      if (codeOf(error) !== "ENOENT") throw error;
    });
  }
}
