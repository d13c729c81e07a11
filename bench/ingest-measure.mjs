// The two measurements of `bench/ingest.mjs`, through the Sources API: one sitemap pushed and
// polled until it settles, then text sources pushed one at a time and polled every 50 ms.
import { median, percentile } from "./ingest-report.mjs";
import { BenchFailure, backendCpuBetween, machineCpuTicks, postgresBackendCpuSeconds, processCpuSeconds, sleep, withStore } from "./bench-service.mjs";
import { renderText } from "./ingest-site.mjs";

const SITEMAP_POLL_MS = 100;
const TEXT_POLL_MS = 50;
const TEXT_TIMEOUT_MS = 60_000;
const VECTORS_POLL_MS = 500;

/**
 * Whether every vector of the agent is in an HNSW index: its own index built and valid
 * (migration 0051), or the agent in the shared index with no chunk left outside it (0022).
 */
const vectorsIndexedSql = (agentId) => `SELECT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('"' || a.own_vector_index || '"')), false)
    OR (a.vectors_indexed_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.agent_id = a.id AND c.dimensions = 384 AND NOT c.vector_indexed)) AS done
  FROM agents a WHERE a.id = '${agentId.replace(/'/g, "''")}'`;

/**
 * After the sitemap is indexed (its pages searchable: vectors outside an index are compared
 * exactly), waits until the agent's vectors are all in an HNSW index as well: the shared index's
 * upkeep, or a large agent's own index built after its sync. Postgres only (PGlite's store belongs
 * to the running service); times and the backends' CPU from the push.
 */
async function waitForVectorIndex({ database, agentId, pushedAt, postgresBefore, timeoutMs }) {
  return withStore({ url: database.url }, async (query) => {
    for (;;) {
      const [row] = await query(vectorsIndexedSql(agentId));
      if (row?.done) break;
      if (Date.now() - pushedAt > timeoutMs) throw new BenchFailure(`the agent's vectors were not all in an HNSW index after ${timeoutMs / 1000}s`);
      await sleep(VECTORS_POLL_MS);
    }
    return { pushToVectorsIndexedMs: Date.now() - pushedAt, postgresCpuSecondsToVectorsIndexed: backendCpuBetween(postgresBefore, postgresBackendCpuSeconds(database.name)) };
  });
}

/**
 * Pushes the sitemap and polls it every 100 ms until it settles (times on this, the client's, clock);
 * meanwhile counts the CPU of the server, of its Postgres backends, of this process and of the machine.
 */
export async function measureSitemap({ client, agentId, sitemapUrl, pid, database, timeoutMs }) {
  const postgresBefore = database ? postgresBackendCpuSeconds(database.name) : null;
  const benchBefore = process.cpuUsage();
  const cpuBefore = processCpuSeconds(pid);
  const machineBefore = machineCpuTicks();
  const pushedAt = Date.now();
  const source = await client.push({ agent_id: agentId, kind: "sitemap", url: sitemapUrl });
  let current = source;
  let firstProgressAt = null;
  while (current.status === "pending") {
    if (Date.now() - pushedAt > timeoutMs) {
      throw new BenchFailure(`the sitemap was still pending after ${timeoutMs / 1000}s: ${JSON.stringify(current.config)}`);
    }
    await sleep(SITEMAP_POLL_MS);
    current = await client.get(source.id);
    if (firstProgressAt === null && Number(current.config.pages_indexed) > 0) firstProgressAt = Date.now();
  }
  const settledAt = Date.now();
  const cpuSeconds = processCpuSeconds(pid) - cpuBefore;
  const machineAfter = machineCpuTicks();
  const benchUsage = process.cpuUsage(benchBefore);
  const postgresSeconds = database ? backendCpuBetween(postgresBefore, postgresBackendCpuSeconds(database.name)) : null;
  const elapsedSeconds = (settledAt - pushedAt) / 1000;
  if (current.status !== "indexed") throw new BenchFailure(`the sitemap ended ${current.status}: ${JSON.stringify(current.error)}`);
  const vectors = database ? await waitForVectorIndex({ database, agentId, pushedAt, postgresBefore, timeoutMs }) : null;
  return {
    sourceId: source.id,
    // Until every vector is in an HNSW index too (null on PGlite).
    pushToVectorsIndexedMs: vectors?.pushToVectorsIndexedMs ?? null,
    postgresCpuSecondsToVectorsIndexed: vectors?.postgresCpuSecondsToVectorsIndexed ?? null,
    pushedAt,
    pushToIndexedMs: settledAt - pushedAt,
    firstProgressMs: firstProgressAt === null ? null : firstProgressAt - pushedAt,
    pagesFound: Number(current.config.pages_found),
    pagesIndexed: Number(current.config.pages_indexed),
    pagesFailed: Number(current.config.pages_failed),
    serverCpuSeconds: cpuSeconds,
    serverCpuPercent: (cpuSeconds / elapsedSeconds) * 100,
    // The Postgres backends of this run's database, and this bench process (site, embeddings server, polling).
    postgresCpuPercent: postgresSeconds === null ? null : (postgresSeconds / elapsedSeconds) * 100,
    benchCpuPercent: ((benchUsage.user + benchUsage.system) / 1e6 / elapsedSeconds) * 100,
    // Everything the machine did meanwhile (the above and anyone else's work), as a share of all cores.
    machineCpuBusyPercent: ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100,
  };
}

/** Pushes distinct texts one at a time; each is timed from the POST to the poll that sees `indexed`. */
export async function measureTexts({ client, agentId, runId, count }) {
  const durations = [];
  const postMs = [];
  for (let index = 0; index < count; index += 1) {
    const text = renderText(index, runId);
    const started = performance.now();
    const source = await client.push({ agent_id: agentId, kind: "text", title: text.title, content: text.content });
    postMs.push(performance.now() - started);
    let current = source;
    while (current.status === "pending") {
      if (performance.now() - started > TEXT_TIMEOUT_MS) throw new BenchFailure(`text ${index} still pending after ${TEXT_TIMEOUT_MS / 1000}s`);
      await sleep(TEXT_POLL_MS);
      current = await client.get(source.id);
    }
    if (current.status !== "indexed") throw new BenchFailure(`text ${index} ended ${current.status}: ${JSON.stringify(current.error)}`);
    durations.push(performance.now() - started);
  }
  return {
    count: durations.length,
    medianMs: median(durations),
    p90Ms: percentile(durations, 90),
    minMs: Math.min(...durations),
    maxMs: Math.max(...durations),
    postMedianMs: median(postMs),
    durationsMs: durations.map((value) => Math.round(value)),
  };
}

/** Pages indexed in each second after the push: shows the ramp-up, the steady rate and any stall. */
export function timeline(indexedAt, pushedAt) {
  const counts = [];
  for (const at of indexedAt) {
    const second = Math.max(0, Math.floor((at - pushedAt) / 1000));
    while (counts.length <= second) counts.push(0);
    counts[second] += 1;
  }
  return counts;
}
