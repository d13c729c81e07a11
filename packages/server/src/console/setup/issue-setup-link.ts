import type { Logger } from "pino";
import type { Queryable } from "../../db/database.js";
import { generateConsoleSecret, hashConsoleSecret } from "../console-secret.js";
import { anyOperatorExists, insertSetupToken } from "../../tenants/setup-tokens.js";

export interface SetupLink {
  url: string;
  expiresAt: Date;
}

/**
 * A one-time setup link, `{public url}/console/setup#token=…` (24 hours, once), when the
 * deployment has no operator yet; null once one exists. Only the token's hash is stored. The token
 * is in the fragment: a browser opening the link never sends it, so it reaches no request log,
 * proxy log or Referer; the console's page reads it and posts it in request bodies.
 */
export async function issueSetupLink(db: Queryable, publicUrl: string, now: Date): Promise<SetupLink | null> {
  if (await anyOperatorExists(db)) return null;
  const token = generateConsoleSecret();
  const expiresAt = await insertSetupToken(db, hashConsoleSecret(token), now);
  return { url: `${publicUrl}/console/setup#token=${token}`, expiresAt };
}

/** The link in a box, so it stands out of the log lines around it. */
export function boxedSetupMessage(link: SetupLink): string {
  const lines = [
    "Frontdesk has no operator yet. Open this link in a browser to create",
    `the workspace and its first admin (once, until ${link.expiresAt.toISOString()}):`,
    "",
    link.url,
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const edge = "═".repeat(width + 4);
  return [`╔${edge}╗`, ...lines.map((line) => `║  ${line.padEnd(width)}  ║`), `╚${edge}╝`, ""].join("\n");
}

/** Where the box goes by default: stderr when it is a terminal; elsewhere (a log collector, a pipe) every line stays JSON. */
const terminalWriter = (): ((text: string) => void) | null => (process.stderr.isTTY ? (text) => process.stderr.write(text) : null);

/**
 * `serve`'s first-run announcement: while no operator exists, a fresh setup link, logged as a
 * structured line (`setupUrl`, `expiresAt`) and, on a terminal, written once to stderr in a box.
 * Each start issues a new link; earlier unexpired ones keep working until one of them is used.
 */
export async function announceFirstRunSetup(
  db: Queryable,
  options: { publicUrl: string; now: Date; logger: Logger; write?: ((text: string) => void) | null },
): Promise<SetupLink | null> {
  const link = await issueSetupLink(db, options.publicUrl, options.now);
  if (!link) return null;
  const write = options.write === undefined ? terminalWriter() : options.write;
  write?.(`\n${boxedSetupMessage(link)}\n`);
  options.logger.warn(
    { event: "first_run_setup", setupUrl: link.url, expiresAt: link.expiresAt.toISOString() },
    "No operator yet: open the setup link to create the first admin",
  );
  return link;
}
