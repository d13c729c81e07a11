import { spawn } from "node:child_process";
import { access } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * Creates a new PGlite data directory in a short-lived child process (`pglite-initdb.js`) rather
 * than in the service: initdb runs Postgres's bootstrap in WebAssembly instances of its own that
 * took the first start's peak to about 740 MB and left the idle service some 50 MB of compiler
 * and allocator memory it never gave back. A directory that already holds a cluster (`PG_VERSION`)
 * is left as it is.
 */
export async function initialisePgliteDataDir(dataDir: string, scriptUrl: URL): Promise<void> {
  if (await exists(path.join(dataDir, "PG_VERSION"))) return;
  const child = spawn(process.execPath, [fileURLToPath(scriptUrl), dataDir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr = (stderr + text).slice(-2_000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`Creating the PGlite data directory ${dataDir} failed (exit code ${code}): ${stderr.trim()}`);
}
