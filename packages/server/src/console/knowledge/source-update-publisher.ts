import type { Queryable } from "../../db/database.js";
import type { AfterCommitSubscriber } from "../../events/domain-events.js";
import type { FrontdeskEvent } from "../../events/frontdesk-events.js";
import { countDocumentsBySource } from "../../ingest/documents.js";
import type { EventBus } from "../../realtime/event-bus.js";
import { findSource, type SourceRecord } from "../../sources/sources.js";

/** While a source syncs, its progress is announced at most this often; its settling always is. */
export const SOURCE_PROGRESS_INTERVAL_MS = 250;

/**
 * Announces a source's state on its workspace's channel (`source.updated`), so the Knowledge screen
 * shows progress live: when it is added or re-synced, as its pages are indexed (throttled per
 * source), when it settles, and when it is deleted.
 */
export class SourceUpdatePublisher {
  private readonly lastProgressAt = new Map<string, number>();
  /** Each source's announcements run one after the other, so an older read is never published after a newer one. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Queryable,
    private readonly bus: EventBus,
    private readonly onError: (error: unknown) => void,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /**
   * After a change of the source is committed: reads it with its pages' counts and announces them
   * (a progress step may be skipped; a settled state never is). A caller that knows the source is
   * still syncing says so (`progress`): within the interval nothing is read at all (a sitemap's
   * pages would read the source and count its pages once each). Never rejects (failures go to onError).
   */
  sourceChanged(sourceId: string, progress?: { syncing: boolean }): Promise<void> {
    const last = this.lastProgressAt.get(sourceId);
    if (progress?.syncing && last !== undefined && this.clock() - last < SOURCE_PROGRESS_INTERVAL_MS) return Promise.resolve();
    const next = (this.chains.get(sourceId) ?? Promise.resolve())
      .then(async () => {
        const source = await findSource(this.db, sourceId);
        if (source) await this.announce(source);
      })
      .catch(this.onError)
      .finally(() => {
        if (this.chains.get(sourceId) === next) this.chains.delete(sourceId);
      });
    this.chains.set(sourceId, next);
    return next;
  }

  private async announce(source: SourceRecord): Promise<void> {
    const counts = (await countDocumentsBySource(this.db, [source.id])).get(source.id) ?? { found: 0, indexed: 0, failed: 0, pending: 0 };
    const syncing = source.status === "pending" || counts.pending > 0;
    if (syncing) {
      const now = this.clock();
      const last = this.lastProgressAt.get(source.id);
      if (last !== undefined && now - last < SOURCE_PROGRESS_INTERVAL_MS) return;
      this.lastProgressAt.set(source.id, now);
    } else {
      this.lastProgressAt.delete(source.id);
    }
    this.bus.publish({
      type: "source.updated",
      workspaceId: source.workspaceId,
      agentId: source.agentId,
      sourceId: source.id,
      status: source.status,
      syncing,
      progress: counts,
      error: source.error,
      deleted: false,
    });
  }

  deleted(source: { id: string; workspaceId: string; agentId: string }): void {
    this.lastProgressAt.delete(source.id);
    this.bus.publish({
      type: "source.updated",
      workspaceId: source.workspaceId,
      agentId: source.agentId,
      sourceId: source.id,
      status: "indexed",
      syncing: false,
      progress: { found: 0, indexed: 0, failed: 0, pending: 0 },
      error: null,
      deleted: true,
    });
  }
}

/**
 * The Knowledge screen's subscriber, after the commit: a changed source is read again and
 * announced, a deleted one announced gone. The worker's page-by-page progress comes through
 * `sourceChanged` directly (ingest's onSourceChanged hook), throttled.
 */
export const announceSourceUpdatesOf =
  (publisher: SourceUpdatePublisher): AfterCommitSubscriber<FrontdeskEvent> =>
  async (event) => {
    if (event.type === "source.changed") await publisher.sourceChanged(event.sourceId);
    else if (event.type === "source.deleted") publisher.deleted({ id: event.sourceId, workspaceId: event.workspaceId, agentId: event.agentId });
  };
