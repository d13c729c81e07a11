import type { SourceSchedule } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { sourceNotFound } from "./resync-source.js";
import { setSourceSchedule } from "./source-schedule-repository.js";
import { findWorkspaceSource, type SourceRecord } from "./source-repository.js";
import { isSchedulable, nextSyncAt } from "./source-schedule.js";

/** The 422 for a schedule on a source that is not fetched from the web. */
export const notSchedulable = () =>
  new AppError("validation_failed", "Only url and sitemap sources are re-synced on a schedule.", {
    schedule: ["only url and sitemap sources have a schedule; a text or a WordPress site is pushed"],
  });

/**
 * Sets how often a url or sitemap source is re-synced. The first scheduled re-sync is one interval
 * (plus the source's jitter) from now; `off` clears it. Setting the schedule it already has keeps
 * its next re-sync.
 */
export async function updateSourceSchedule(services: Services, workspaceId: string, sourceId: string, schedule: SourceSchedule): Promise<SourceRecord> {
  const source = await findWorkspaceSource(services.db, workspaceId, sourceId);
  if (!source) throw sourceNotFound();
  if (!isSchedulable(source.kind) && schedule !== "off") throw notSchedulable();
  if (source.schedule === schedule) return source;
  const updated = await setSourceSchedule(services.db, workspaceId, sourceId, schedule, nextSyncAt(source.id, schedule, services.now()));
  if (!updated) throw sourceNotFound();
  return updated;
}
