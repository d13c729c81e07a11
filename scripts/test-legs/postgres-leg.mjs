// The `postgres` leg: the machine's Postgres reachable at FRONTDESK_TEST_POSTGRES_URL, with pgvector
// available. Provisioning starts the local cluster on that port if it is down and builds pgvector
// from Debian's source package if it is missing (root and apt only).
import pg from "pg";
import { isLoopback, redactUrl, waitUntilReady } from "./machine.mjs";
import { buildPgvector } from "./pgvector-build.mjs";

/** @typedef {import("./legs.mjs").Leg} Leg */
/** @typedef {import("./legs.mjs").ProvisionContext} ProvisionContext */
/** @typedef {{ ready: boolean, problem: string, reachable: boolean, major: number | null }} PostgresProbe */

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** @param {string} url @returns {Promise<PostgresProbe>} */
async function probePostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    const message = error instanceof Error ? error.message || error.name : String(error);
    return { ready: false, reachable: false, major: null, problem: `cannot connect to ${redactUrl(url)} (${message})` };
  }
  try {
    const { rows } = await client.query(
      "SELECT current_setting('server_version_num')::int / 10000 AS major, " +
        "EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vector",
    );
    const major = Number(rows[0]?.major);
    if (rows[0]?.vector === true) return { ready: true, reachable: true, major, problem: "" };
    return { ready: false, reachable: true, major, problem: `pgvector is not installed on Postgres ${major} at ${redactUrl(url)}` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ready: false, reachable: true, major: null, problem: `Postgres at ${redactUrl(url)} refused the probe (${message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The local cluster (pg_lsclusters) that listens on `port`, if any.
 * @param {ProvisionContext["machine"]} machine
 * @param {number} port
 */
async function findLocalCluster(machine, port) {
  const { code, output } = await machine.run("pg_lsclusters", ["--no-header"]);
  if (code !== 0) return null;
  for (const line of output.split("\n")) {
    const [version, name, clusterPort, status] = line.trim().split(/\s+/);
    if (version && name && Number(clusterPort) === port) return { version, name, online: status === "online" };
  }
  return null;
}

/** @type {Leg} */
export const postgresLeg = {
  name: "postgres",
  needs: "Postgres with pgvector",
  target: (env) => env.FRONTDESK_TEST_POSTGRES_URL || DEFAULT_URL,
  probe: probePostgres,
  async provision(url, first, { machine, did }) {
    const { hostname, port: portText } = new URL(url);
    const port = Number(portText || 5432);
    /** @type {PostgresProbe} */
    let probe = /** @type {PostgresProbe} */ (first);
    if (!isLoopback(hostname)) return { ready: false, problem: `${probe.problem}; ${hostname} is another machine, which this script leaves alone` };
    if (!machine.hasCommand("pg_lsclusters")) return { ready: false, problem: `${probe.problem}; Postgres is not installed here (no pg_lsclusters)` };
    if (!machine.isRoot()) return { ready: false, problem: `${probe.problem}; provisioning it needs root (running as uid ${machine.uid()})` };
    const cluster = await findLocalCluster(machine, port);
    if (!cluster) return { ready: false, problem: `${probe.problem}; no Postgres cluster of this machine is configured on port ${port}` };

    if (!probe.reachable) {
      if (!cluster.online) {
        await machine.run("pg_ctlcluster", ["--skip-systemctl-redirect", cluster.version, cluster.name, "start"]);
        did(`started Postgres cluster ${cluster.version}/${cluster.name}`);
      }
      probe = await waitUntilReady(async () => {
        const next = await probePostgres(url);
        return { ...next, ready: next.reachable };
      }, 30);
      if (!probe.reachable) return { ready: false, problem: `${probe.problem} after starting cluster ${cluster.version}/${cluster.name}` };
      probe = await probePostgres(url);
      if (probe.ready) return probe;
    }

    if (!machine.hasCommand("apt-get")) return { ready: false, problem: `${probe.problem}; building it needs apt-get, which this machine lacks` };
    const major = probe.major ?? Number(cluster.version);
    try {
      await buildPgvector(machine, major, { install: true });
    } catch (error) {
      return { ready: false, problem: `${probe.problem}; building pgvector failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    did(`built and installed pgvector for Postgres ${major} from Debian's source package`);
    return probePostgres(url);
  },
};
