import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * `mkdir -p`, one level at a time from the deepest directory that exists. Node's own recursive
 * mkdir never returns on a path where creating fails with ENOENT under an existing parent (a data
 * dir under /proc spun forever); here that is an error naming the directory.
 */
export async function makeDirectory(path: string, mode = 0o700): Promise<void> {
  const missing: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    try {
      if (!(await stat(current)).isDirectory()) throw new Error(`cannot create the directory ${path}: ${current} exists and is not a directory`);
      break;
    } catch (error) {
      if (codeOf(error) === "ENOTDIR") throw new Error(`cannot create the directory ${path}: a part of it is a file`, { cause: error });
      if (codeOf(error) !== "ENOENT") throw error;
      missing.push(current);
      if (dirname(current) === current) break;
    }
  }
  for (const directory of missing.reverse()) {
    try {
      await mkdir(directory, { mode });
    } catch (error) {
      if (codeOf(error) === "EEXIST") continue;
      throw new Error(`cannot create the directory ${directory}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
