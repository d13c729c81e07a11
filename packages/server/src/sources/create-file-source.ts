import type { FileSourceBody } from "@frontdesk/contracts";
import { createHash } from "node:crypto";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { newId, randomBase62 } from "../db/ids.js";
import { detectFileMediaType, FILE_MEDIA_TYPES, type FileMediaType } from "../files/detect-file-type.js";
import { publicFileUrl } from "./public-file-url.js";
import type { FileUpload } from "./read-file-upload.js";
import { findSourceFile, upsertSourceFile } from "./source-file-repository.js";
import {
  findDuplicateSource,
  findWorkspaceSource,
  insertSourceUnlessDuplicate,
  replaceFileOfSource,
  requestResync,
  type NewSource,
  type SourceRecord,
} from "./source-repository.js";

/** The longest file name kept; a longer one is cut (its extension kept). */
const MAX_FILENAME_LENGTH = 200;

/** A file name safe to store and to put in a URL path: no directories, no control characters. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (cleaned === "" || cleaned === "." || cleaned === "..") return "file";
  if (cleaned.length <= MAX_FILENAME_LENGTH) return cleaned;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(cleaned)?.[0] ?? "";
  return cleaned.slice(0, MAX_FILENAME_LENGTH - extension.length) + extension;
}

interface DescribedFile {
  filename: string;
  mediaType: FileMediaType;
  sha256: string;
  bytes: number;
}

async function describeFile(upload: FileUpload): Promise<DescribedFile> {
  if (upload.bytes.length === 0) throw new AppError("validation_failed", "The request is invalid.", { file: ["must not be empty"] });
  const filename = cleanFilename(upload.filename);
  const mediaType = await detectFileMediaType(upload.bytes, filename);
  return { filename, mediaType, sha256: createHash("sha256").update(upload.bytes).digest("hex"), bytes: upload.bytes.length };
}

function fileConfig(services: Services, publicId: string, file: DescribedFile): Record<string, unknown> {
  return { filename: file.filename, media_type: file.mediaType, bytes: file.bytes, file_url: publicFileUrl(services.config.publicUrl, publicId, file.filename) };
}

const missingFile = () => new AppError("validation_failed", "The request is invalid.", { file: ["must be a file part of a multipart/form-data body"] });

/**
 * POST /sources with `kind=file`: stores the file and its source and enqueues its indexing in one
 * transaction. The same bytes again for the same agent return the existing source (200), retried
 * when it had failed.
 */
export async function createFileSource(
  services: Services,
  workspaceId: string,
  body: FileSourceBody,
  upload: FileUpload | undefined,
): Promise<{ source: SourceRecord; created: boolean }> {
  if (!upload) throw missingFile();
  const agent = await findWorkspaceAgent(services.db, workspaceId, body.agent_id);
  if (!agent) throw new AppError("agent_not_found", "No agent with this id in the token's workspace.");
  const file = await describeFile(upload);
  const id = newId("src");
  const publicId = randomBase62(32);
  const description: NewSource = {
    id,
    workspaceId,
    agentId: agent.id,
    kind: "file",
    config: {
      ...fileConfig(services, publicId, file),
      title: body.title ?? null,
      source_url: body.source_url ?? null,
      ...(file.mediaType === FILE_MEDIA_TYPES.csv ? { csv_mode: body.csv_mode ?? "curated" } : {}),
    },
    targetUrl: null,
    contentHash: file.sha256,
    schedule: "off",
    nextSyncAt: null,
  };
  return services.db.transaction(async (tx) => {
    const inserted = await insertSourceUnlessDuplicate(tx, description);
    if (inserted) {
      await upsertSourceFile(tx, { sourceId: id, workspaceId, publicId, filename: file.filename, mediaType: file.mediaType, bytes: file.bytes, sha256: file.sha256 }, upload.bytes);
      await services.jobs.send("index-source", { sourceId: id }, tx);
      return { source: inserted, created: true };
    }
    const existing = await findDuplicateSource(tx, description);
    if (!existing) throw new AppError("service_unavailable", "The source changed while it was being created; retry.");
    if (existing.status !== "failed") return { source: existing, created: false };
    const retried = await requestResync(tx, existing.id);
    await services.jobs.send("index-source", { sourceId: existing.id }, tx);
    return { source: retried, created: false };
  });
}

/**
 * PUT /sources/{id}/file: a new version of a file source's file. Its chunks are replaced by the
 * re-index this enqueues (until it ends, the old ones keep answering); the same bytes again change
 * nothing (`changed: false`). Bytes another file source of the agent already holds are refused.
 */
export async function replaceSourceFile(
  services: Services,
  workspaceId: string,
  sourceId: string,
  upload: FileUpload | undefined,
): Promise<{ source: SourceRecord; changed: boolean }> {
  if (!upload) throw missingFile();
  const file = await describeFile(upload);
  return services.db.transaction(async (tx) => {
    const source = await findWorkspaceSource(tx, workspaceId, sourceId);
    if (!source) throw new AppError("source_not_found", "No source with this id in the token's workspace.");
    if (source.kind !== "file") throw new AppError("validation_failed", "The request is invalid.", { id: ["must be a source of kind file"] });
    if (source.contentHash === file.sha256) return { source, changed: false };
    const twin = await findDuplicateSource(tx, { ...source, contentHash: file.sha256, schedule: "off", nextSyncAt: null });
    if (twin) throw new AppError("validation_failed", "The request is invalid.", { file: [`the agent already has this file as source ${twin.id}`] });
    const publicId = (await findSourceFile(tx, sourceId))?.publicId ?? randomBase62(32);
    const configPatch: Record<string, unknown> = fileConfig(services, publicId, file);
    if (file.mediaType === FILE_MEDIA_TYPES.csv && source.config.csv_mode === undefined) configPatch.csv_mode = "curated";
    await upsertSourceFile(tx, { sourceId, workspaceId, publicId, filename: file.filename, mediaType: file.mediaType, bytes: file.bytes, sha256: file.sha256 }, upload.bytes);
    const replaced = await replaceFileOfSource(tx, sourceId, file.sha256, configPatch);
    await services.jobs.send("index-source", { sourceId }, tx);
    return { source: replaced, changed: true };
  });
}
