import PgBoss from "pg-boss";
import type { Database, Queryable, SqlValue } from "../db/database.js";
import { SCHEMA_LOCK } from "../db/migrate.js";
import { jobCatalog, type JobName, type JobPayload, type RetryPolicy } from "./job-catalog.js";

/** What a handler learns about the attempt it runs in. */
export interface JobAttempt {
  id: string;
  /** True when a thrown error will not be retried: the handler should record the failure itself. */
  isLastAttempt: boolean;
}

export type JobHandler<Name extends JobName> = (payload: JobPayload<Name>, attempt: JobAttempt) => Promise<void>;

export interface SendOptions {
  /** Not before this time (a retry's back-off scheduled by the handler itself). */
  startAfter?: Date;
}

export interface JobQueue {
  /** Enqueues a job; pass the open transaction so the job exists exactly when the row that needs it does. */
  send<Name extends JobName>(name: Name, payload: JobPayload<Name>, tx?: Queryable, options?: SendOptions): Promise<void>;
  /** Enqueues many jobs of one kind in one statement. */
  sendMany<Name extends JobName>(name: Name, payloads: JobPayload<Name>[], tx?: Queryable): Promise<void>;
  /**
   * Sends the job (with an empty payload) on the cron `cron` (UTC), from now on and across restarts;
   * calling it again replaces the schedule. Only a queue started with `runSchedules` fires schedules.
   */
  schedule(name: JobName, cron: string): Promise<void>;
  /** Starts `concurrency` workers for the job. */
  work<Name extends JobName>(name: Name, concurrency: number, handler: JobHandler<Name>): Promise<void>;
  stop(): Promise<void>;
}

const asBossDb = (runner: Queryable | Database): PgBoss.Db => ({
  async executeSql(text: string, values: unknown[]) {
    if (values && values.length > 0) return runner.query(text, values as SqlValue[]);
    if ("exec" in runner) return { rows: await runner.exec(text) };
    return runner.query(text);
  },
});

export interface JobQueueOptions {
  pollingIntervalSeconds?: number;
  /** Overrides every job's retry policy (tests use short delays; deployments a job timeout). */
  retry?: Partial<RetryPolicy>;
  /**
   * The store belongs to this process alone (PGlite): jobs left `active` by a process that died
   * are orphans and are retried at once instead of waiting for their timeout; and every job is sent
   * by this process, which wakes the queue's workers when it sends one, so that they poll only every
   * SINGLE_PROCESS_POLLING_SECONDS (on PGlite each empty poll is a statement on its one thread).
   */
  singleProcess?: boolean;
  onError?: (error: Error) => void;
  /** This process fires the stored schedules (pg-boss's timekeeper; several processes may, each schedule fires once). */
  runSchedules?: boolean;
}

/** How often an idle worker looks for jobs on a single-process store (sent jobs wake it at once; retries and schedules wait for it). */
export const SINGLE_PROCESS_POLLING_SECONDS = 2;

type QueuePolicy = Pick<PgBoss.Queue, "retryLimit" | "retryDelay" | "retryBackoff" | "expireInSeconds">;

/** Whether the stored queue already has the policy (what updateQueue would write). */
const sameQueuePolicy = (stored: QueuePolicy, wanted: QueuePolicy): boolean =>
  stored.retryLimit === wanted.retryLimit &&
  stored.retryDelay === wanted.retryDelay &&
  stored.retryBackoff === wanted.retryBackoff &&
  stored.expireInSeconds === wanted.expireInSeconds;

/** pg-boss on the service's own store (PGlite or Postgres): jobs survive restarts and are retried with back-off. */
export async function startJobQueue(db: Database, options: JobQueueOptions = {}): Promise<JobQueue> {
  const policyOf = (name: JobName): RetryPolicy => ({ ...jobCatalog[name].retry, ...options.retry });
  const shortestTimeout = Math.min(...(Object.keys(jobCatalog) as JobName[]).map((name) => policyOf(name).expireInSeconds));
  // pg-boss's own statements in flight: it completes a finished job without awaiting it, so stop()
  // waits for them; a completion reaching a closed store would be an unhandled rejection.
  const bossStatements = new Set<Promise<unknown>>();
  const store = asBossDb(db);
  const trackedStore: PgBoss.Db = {
    executeSql(text, values) {
      const statement = store.executeSql(text, values);
      bossStatements.add(statement);
      const settled = () => void bossStatements.delete(statement);
      statement.then(settled, settled);
      return statement;
    },
  };
  const boss = new PgBoss({
    db: trackedStore,
    schema: "pgboss",
    supervise: true,
    schedule: options.runSchedules ?? false,
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(shortestTimeout / 2))),
  });
  boss.on("error", (error: Error) => options.onError?.(error));
  // pg-boss installs its schema and our queues when it starts; processes starting together take turns.
  try {
    await db.withAdvisoryLock(SCHEMA_LOCK, async () => {
      await boss.start();
      // One read of every queue; a queue is written only when missing (a table each: DDL) or when its
      // policy changed, so that a start over a store that has them all costs one statement.
      const stored = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
      for (const name of Object.keys(jobCatalog) as JobName[]) {
        const policy = policyOf(name);
        const queue = {
          name,
          retryLimit: policy.retryLimit,
          retryDelay: policy.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: policy.expireInSeconds,
        };
        const current = stored.get(name);
        if (!current) await boss.createQueue(name, queue);
        else if (!sameQueuePolicy(current, queue)) await boss.updateQueue(name, queue);
      }
    });
    if (options.singleProcess) {
      await db.query(`UPDATE pgboss.job SET state = 'retry', start_after = now() WHERE state = 'active'`);
    }
  } catch (error) {
    // A start that failed half-way leaves no timer behind to keep the process alive.
    await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
    throw error;
  }
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? (options.singleProcess ? SINGLE_PROCESS_POLLING_SECONDS : 0.5);
  /** Each queue's workers in this process, woken when this process sends them a job (single-process stores only). */
  const workersOf = new Map<JobName, string[]>();
  const wake = (name: JobName): void => {
    if (!options.singleProcess || stopped) return;
    // A worker busy with a job fetches the next at once anyway; a sleeping one fetches now. On PGlite
    // the fetch waits for the sending transaction to end, so it sees the job.
    for (const workerId of workersOf.get(name) ?? []) boss.notifyWorker(workerId);
  };
  /** Handlers still running: stop() waits for them, so nothing touches the store after it closes. */
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  return {
    async send(name, payload, tx, sendOptions) {
      const parsed = jobCatalog[name].payload.parse(payload);
      await boss.send(name, parsed, { ...(tx ? { db: asBossDb(tx) } : {}), ...(sendOptions?.startAfter ? { startAfter: sendOptions.startAfter } : {}) });
      if (!sendOptions?.startAfter) wake(name);
    },
    async sendMany(name, payloads, tx) {
      const retry = policyOf(name);
      const schema = jobCatalog[name].payload;
      const jobs = payloads.map((payload) => ({
        name,
        data: schema.parse(payload),
        retryLimit: retry.retryLimit,
        retryDelay: retry.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: retry.expireInSeconds,
      }));
      for (let start = 0; start < jobs.length; start += 1000) {
        await boss.insert(jobs.slice(start, start + 1000), tx ? { db: asBossDb(tx) } : {});
      }
      if (jobs.length > 0) wake(name);
    },
    async schedule(name, cron) {
      await boss.schedule(name, cron, {}, { tz: "UTC" });
    },
    async work(name, concurrency, handler) {
      for (let worker = 0; worker < concurrency; worker += 1) {
        // After a job, the worker asks for the next one at once; it sleeps the polling interval only when the queue is empty.
        let workerId = "";
        workerId = await boss.work<unknown>(name, { batchSize: 1, pollingIntervalSeconds, includeMetadata: true }, async (jobs) => {
          // A fetch slower than stop()'s wait (a saturated store) can hand jobs over after stop()
          // returned and the store closed: they are refused, so pg-boss runs them again later.
          if (stopped) throw new Error("the job queue is stopping: the job runs again later");
          try {
            for (const job of jobs) {
              const payload = jobCatalog[name].payload.parse(job.data) as JobPayload<typeof name>;
              const running = handler(payload, { id: job.id, isLastAttempt: job.retryCount >= job.retryLimit });
              inFlight.add(running);
              try {
                await running;
              } finally {
                inFlight.delete(running);
              }
            }
          } finally {
            if (jobs.length > 0 && workerId && !stopped) boss.notifyWorker(workerId);
          }
        });
        workersOf.set(name, [...(workersOf.get(name) ?? []), workerId]);
      }
    },
    async stop() {
      stopped = true;
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await Promise.allSettled([...inFlight]);
      // A handler that just returned has its completion sent by pg-boss a few microtasks later.
      do {
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.allSettled([...bossStatements]);
      } while (bossStatements.size > 0);
    },
  };
}
