import { readFileSync } from "node:fs";

/** The server package's version (packages/server/package.json), for `frontdesk --version`. */
export function frontdeskVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
