import { createHash } from "node:crypto";
import type { SourceSchedule } from "@frontdesk/contracts";
import type { SourceKind } from "./source-repository.js";

const HOUR_MS = 60 * 60 * 1000;

/** The interval of each schedule; `off` has none. */
export const SCHEDULE_INTERVAL_MS: Record<Exclude<SourceSchedule, "off">, number> = {
  hourly: HOUR_MS,
  daily: 24 * HOUR_MS,
  weekly: 7 * 24 * HOUR_MS,
};

/** The share of the interval a source's jitter spans: 10 % (an hourly source fires within 6 minutes of its hour, a daily one within 2.4 hours). */
export const JITTER_SHARE = 0.1;

/** Only these kinds are fetched from the web, so only they are re-synced on a schedule. */
export const SCHEDULABLE_KINDS: readonly SourceKind[] = ["url", "sitemap"];

export const isSchedulable = (kind: SourceKind): boolean => SCHEDULABLE_KINDS.includes(kind);

/**
 * The source's stable place within its jitter window, in [0, 1): the first 4 bytes of the SHA-256
 * of its id. The same source always lands at the same offset, so its syncs stay evenly apart,
 * and sources created together (an import of thousands) spread over the window instead of
 * firing in the same minute.
 */
export function jitterFraction(sourceId: string): number {
  return createHash("sha256").update(sourceId).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * When the source's next scheduled re-sync is due after one that started (or was set up) at
 * `from`: `from` + the interval + the source's jitter. Null for `off`.
 */
export function nextSyncAt(sourceId: string, schedule: SourceSchedule, from: Date): Date | null {
  if (schedule === "off") return null;
  const interval = SCHEDULE_INTERVAL_MS[schedule];
  return new Date(from.getTime() + interval + Math.floor(jitterFraction(sourceId) * JITTER_SHARE * interval));
}
