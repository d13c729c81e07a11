import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeDirectory } from "../files/make-directory.js";

const SECRET_FILE = "jwt-secret";

/**
 * The configured secret, or the one generated on first start and kept in the data dir
 * (mode 0600), so tokens survive restarts.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  return resolveKeptSecret(configured, dataDir, SECRET_FILE);
}

/** The configured secret, or the one kept in `dataDir/fileName` (generated there on first start). */
export async function resolveKeptSecret(configured: string | undefined, dataDir: string, fileName: string): Promise<string> {
  if (configured) return configured;
  await makeDirectory(dataDir);
  const path = join(dataDir, fileName);
  try {
    const existing = (await readFile(path, "utf8")).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(48).toString("base64url");
  try {
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(path, "utf8")).trim();
    throw error;
  }
}
