import type { Queryable } from "../db/database.js";
import { CONCURRENCY_SQL_STATES, sqlStateOf } from "../db/sql-state.js";
import { startSessions, visitorKey, type SessionStartRequest, type SessionStartScope, type StartedSession } from "../conversations/visitor-sessions.js";

const MAX_BATCH = 256;

/**
 * Batches of one agent in the store at once. The batches of a workspace queue on its counter row's
 * lock anyway; trials with 4 cost the server more CPU per init (smaller batches) for no more inits
 * a second (docs/benchmarks.md, Widget).
 */
const MAX_IN_FLIGHT = 1;

interface Waiting {
  request: SessionStartRequest;
  resolve: (started: StartedSession) => void;
  reject: (error: unknown) => void;
}

interface AgentQueue {
  scope: SessionStartScope;
  waiting: Waiting[];
  /** Batches of this queue in the store now. */
  running: number;
}

/**
 * Group commit for POST /init: the inits of one agent (and quota month) that arrive while that
 * agent's previous statement runs wait for it, then go to the store together, in one statement
 * (`startSessions`: one commit, one update of the workspace's counter row for all of them). An
 * init that finds nothing running goes at once, so a quiet agent waits for nobody; a busy one
 * sends batches as fast as the store commits them. Another agent has its own queue.
 *
 * A batch fails or succeeds as a whole (one statement): its inits all get the error, unless Postgres
 * ended it for a concurrent transaction (deadlock, serialization), when it is sent once more. Two inits of
 * the same visitor (`anon_id`, or a verified `user_id`) never share a batch: the later waits for the next one.
 */
export class SessionStartBatcher {
  private readonly queues = new Map<string, AgentQueue>();

  constructor(private readonly db: Queryable) {}

  start(scope: SessionStartScope, request: SessionStartRequest): Promise<StartedSession> {
    const key = `${scope.agentId}|${scope.month}`;
    return new Promise<StartedSession>((resolve, reject) => {
      let queue = this.queues.get(key);
      if (!queue) {
        queue = { scope, waiting: [], running: 0 };
        this.queues.set(key, queue);
      }
      // This init joins the next batch, under the latest quota read.
      queue.scope = scope;
      queue.waiting.push({ request, resolve, reject });
      if (queue.running < MAX_IN_FLIGHT) void this.drain(key, queue);
    });
  }

  private async drain(key: string, queue: AgentQueue): Promise<void> {
    queue.running += 1;
    while (queue.waiting.length > 0) {
      const batch = takeBatch(queue.waiting);
      try {
        const requests = batch.map((entry) => entry.request);
        const sessions = await startSessions(this.db, queue.scope, requests).catch((error: unknown) => {
          // Two processes' batches holding one visitor in another order: sent once more; anything else is the batch's error.
          if (!CONCURRENCY_SQL_STATES.has(sqlStateOf(error))) throw error;
          return startSessions(this.db, queue.scope, requests);
        });
        batch.forEach((entry, index) => entry.resolve(sessions[index]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    queue.running -= 1;
    if (queue.running === 0) this.queues.delete(key);
  }
}

/** Takes up to MAX_BATCH waiting inits of distinct visitors off the front of `waiting`, in order; the others stay. */
function takeBatch(waiting: Waiting[]): Waiting[] {
  const batch: Waiting[] = [];
  const rest: Waiting[] = [];
  const visitors = new Set<string>();
  for (const entry of waiting) {
    const visitor = visitorKey(entry.request);
    if (batch.length < MAX_BATCH && !visitors.has(visitor)) {
      visitors.add(visitor);
      batch.push(entry);
    } else {
      rest.push(entry);
    }
  }
  waiting.splice(0, waiting.length, ...rest);
  return batch;
}
