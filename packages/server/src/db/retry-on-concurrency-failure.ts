import { setTimeout as sleep } from "node:timers/promises";
import { CONCURRENCY_SQL_STATES, sqlStateOf } from "./sql-state.js";

/** Attempts in all, and the longest pause before the next one (a random part of it, doubling each time). */
const ATTEMPTS = 5;
const FIRST_PAUSE_MS = 10;

/**
 * Runs `attempt` (one whole transaction) and, when Postgres ended it for what another transaction
 * did at the same moment (40P01 deadlock detected, 40001 serialization failure: nothing of it was
 * committed), runs it again after a short random pause, up to five times in all; any other error,
 * or the fifth such failure, is thrown. For the writes that must not fail for their neighbours'
 * sake, as an erasure the visitor asked for.
 */
export async function retryOnConcurrencyFailure<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= ATTEMPTS || !CONCURRENCY_SQL_STATES.has(sqlStateOf(error))) throw error;
      await sleep(Math.random() * FIRST_PAUSE_MS * 2 ** (tried - 1));
    }
  }
}
