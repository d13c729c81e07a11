import { ConfigError, type Config } from "../config/config.js";

/**
 * `serve` with no workers of its own on the embedded store could never index anything: PGlite
 * belongs to this one process, so no `frontdesk worker` can take the jobs. Refused (exit 78).
 */
export function checkServeConfig(config: Config): void {
  if (config.store.kind === "pglite" && config.workers.concurrency === 0) {
    throw new ConfigError([
      "FRONTDESK_WORKER_CONCURRENCY: 0 starts no indexing workers in `serve`, and the embedded PGlite store cannot be shared with a " +
        "`frontdesk worker` process, so sources would stay pending forever. Set it to 1 or more, or set FRONTDESK_DATABASE_URL and run " +
        "`frontdesk worker` beside this API-only `serve`.",
    ]);
  }
}

/** `worker` shares a Postgres with other processes and exists to run workers. */
export function checkWorkerConfig(config: Config): void {
  if (config.store.kind === "pglite") {
    throw new ConfigError([
      "FRONTDESK_DATABASE_URL: required by `frontdesk worker`; the embedded PGlite store belongs to one process (run `frontdesk serve`, which has workers of its own).",
    ]);
  }
  if (config.workers.concurrency === 0) {
    throw new ConfigError(["FRONTDESK_WORKER_CONCURRENCY: 0 leaves `frontdesk worker` with nothing to do; set it to 1 or more."]);
  }
}
