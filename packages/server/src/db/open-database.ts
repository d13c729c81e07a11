import { join } from "node:path";
import type { Config } from "../config/config.js";
import type { Database } from "./database.js";
import { openPgliteDatabase } from "./pglite-database.js";
import { openPostgresDatabase } from "./postgres-database.js";

export function pgliteDirectory(dataDir: string): string {
  return join(dataDir, "pglite");
}

export function openDatabase(store: Config["store"]): Promise<Database> {
  return store.kind === "postgres"
    ? openPostgresDatabase(store.url, store.poolSize)
    : openPgliteDatabase(pgliteDirectory(store.dataDir), { sharedBuffersMb: store.sharedBuffersMb });
}
