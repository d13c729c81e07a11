import type { CreateSourceBody, SourceSchedule } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { sha256Hex } from "../ingest/content-hash.js";
import { newId } from "../db/ids.js";
import { createFileSource } from "./create-file-source.js";
import type { FileUpload } from "./read-file-upload.js";
import { nextSyncAt } from "./source-schedule.js";
import { setSourceSchedule } from "./source-schedule-repository.js";
import {
  findDuplicateSource,
  insertSourceText,
  insertSourceUnlessDuplicate,
  patchSourceConfig,
  requestResync,
  type NewSource,
  type SourceRecord,
} from "./source-repository.js";

/** A URL as sources are keyed by it: no fragment. */
export function canonicalSourceUrl(value: string): string {
  const url = new URL(value);
  url.hash = "";
  return url.toString();
}

type NonFileBody = Exclude<CreateSourceBody, { kind: "file" }>;

async function describeSource(workspaceId: string, body: NonFileBody, now: Date): Promise<NewSource> {
  if (body.kind === "text") return describeText(newId("src"), workspaceId, body);
  return describeUrlSource({ workspaceId, agentId: body.agent_id, kind: body.kind, url: body.url, schedule: body.schedule ?? "off", now, patterns: patternsOf(body) });
}

/** A sitemap's URL patterns as its body gives them (issue 32 §3), for its config; none for other kinds. */
function patternsOf(body: CreateSourceBody): Record<string, string[]> {
  if (body.kind !== "sitemap") return {};
  return {
    ...(body.include_patterns !== undefined ? { include_patterns: body.include_patterns } : {}),
    ...(body.exclude_patterns !== undefined ? { exclude_patterns: body.exclude_patterns } : {}),
  };
}

/** A new url or sitemap source of an agent (also used by the eval and the benches to index pages directly). */
export function describeUrlSource(input: {
  workspaceId: string;
  agentId: string;
  kind: "url" | "sitemap";
  url: string;
  schedule: SourceSchedule;
  now: Date;
  /** A sitemap's include and exclude URL patterns, kept in its config. */
  patterns?: Record<string, string[]>;
}): NewSource {
  const id = newId("src");
  const url = canonicalSourceUrl(input.url);
  return {
    id,
    workspaceId: input.workspaceId,
    agentId: input.agentId,
    kind: input.kind,
    config: input.kind === "sitemap" ? { url, pages_found: 0, pages_indexed: 0, pages_failed: 0, ...input.patterns } : { url },
    targetUrl: url,
    contentHash: null,
    schedule: input.schedule,
    nextSyncAt: nextSyncAt(id, input.schedule, input.now),
  };
}

async function describeText(id: string, workspaceId: string, body: Extract<NonFileBody, { kind: "text" }>): Promise<NewSource> {
  return {
    id,
    workspaceId,
    agentId: body.agent_id,
    kind: "text",
    config: { title: body.title ?? null, source_url: body.source_url ?? null, content_bytes: Buffer.byteLength(body.content, "utf8") },
    targetUrl: null,
    contentHash: await sha256Hex(body.content),
    schedule: "off",
    nextSyncAt: null,
  };
}

/**
 * POST /sources: records the source and enqueues its indexing in the same transaction (a file: see
 * createFileSource). A text
 * with a known hash returns the existing source; a known URL or sitemap returns the existing
 * source and schedules a re-sync; a failed source pushed again is retried.
 */
export async function createSource(
  services: Services,
  workspaceId: string,
  body: CreateSourceBody,
  upload?: FileUpload,
): Promise<{ source: SourceRecord; created: boolean }> {
  if (body.kind === "file") return createFileSource(services, workspaceId, body, upload);
  const agent = await findWorkspaceAgent(services.db, workspaceId, body.agent_id);
  if (!agent) throw new AppError("agent_not_found", "No agent with this id in the token's workspace.");
  const description = await describeSource(workspaceId, body, services.now());

  return services.db.transaction(async (tx) => {
    const inserted = await insertSourceUnlessDuplicate(tx, description);
    if (inserted) {
      if (body.kind === "text") await insertSourceText(tx, inserted.id, body.content);
      await services.jobs.send("index-source", { sourceId: inserted.id }, tx);
      return { source: inserted, created: true };
    }
    const existing = await findDuplicateSource(tx, description);
    if (!existing) throw new AppError("service_unavailable", "The source changed while it was being created; retry.");
    if (existing.kind !== "text" || existing.status === "failed") {
      // A schedule pushed with a known URL or sitemap replaces the one it had.
      if (body.kind !== "text" && body.schedule !== undefined && body.schedule !== existing.schedule) {
        await setSourceSchedule(tx, workspaceId, existing.id, body.schedule, nextSyncAt(existing.id, body.schedule, services.now()));
      }
      // URL patterns pushed with a known sitemap replace the ones it had; the re-sync applies them.
      const patterns = patternsOf(body);
      if (Object.keys(patterns).length > 0) await patchSourceConfig(tx, existing.id, patterns);
      const resynced = await requestResync(tx, existing.id);
      await services.jobs.send("index-source", { sourceId: existing.id }, tx);
      return { source: resynced, created: false };
    }
    return { source: existing, created: false };
  });
}
