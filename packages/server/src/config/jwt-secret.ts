import { randomBytes } from "node:crypto";
import { link, readFile, unlink, writeFile } from "node:fs/promises";
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

/**
 * The configured secret, or the one kept in `dataDir/fileName` (generated there on first start by
 * `generate`: 48 random bytes in base64url unless told otherwise; at least 32 characters).
 */
export async function resolveKeptSecret(
  configured: string | undefined,
  dataDir: string,
  fileName: string,
  generate: () => string = () => randomBytes(48).toString("base64url"),
): Promise<string> {
  if (configured) return configured;
  await makeDirectory(dataDir);
  const path = join(dataDir, fileName);
  try {
    const existing = (await readFile(path, "utf8")).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = generate();
  // Written whole under a name of its own, then linked into place: a second process starting at
  // the same moment either links first (and this one reads its secret) or reads this one whole,
  // never a file created but not yet written.
  const draft = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await writeFile(draft, `${secret}\n`, { mode: 0o600 });
  try {
    await link(draft, path);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(path, "utf8")).trim();
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}
