import type { Queryable } from "../db/database.js";
import { byteaParameter } from "../db/bytea-parameter.js";

/** The original file of a `file` source, as stored (table `source_files`). */
export interface StoredFile {
  sourceId: string;
  workspaceId: string;
  /** The unguessable id the file is served under (`/api/v1/files/{publicId}/{filename}`). */
  publicId: string;
  filename: string;
  mediaType: string;
  bytes: number;
  sha256: string;
}

export interface StoredFileContent extends StoredFile {
  content: Buffer;
}

interface FileRow {
  source_id: string;
  workspace_id: string;
  public_id: string;
  filename: string;
  media_type: string;
  bytes: number;
  sha256: string;
  content?: Uint8Array;
}

const COLUMNS = "source_id, workspace_id, public_id, filename, media_type, bytes, sha256";

const toFile = (row: FileRow): StoredFile => ({
  sourceId: row.source_id,
  workspaceId: row.workspace_id,
  publicId: row.public_id,
  filename: row.filename,
  mediaType: row.media_type,
  bytes: row.bytes,
  sha256: row.sha256,
});

// PGlite hands bytea back as a Uint8Array, pg as a Buffer: one shape for the callers.
const toContent = (row: FileRow): StoredFileContent => ({ ...toFile(row), content: Buffer.from(row.content ?? new Uint8Array()) });

/** Stores a source's file, or replaces it (a new version uploaded to the same source keeps its public id); its bytes as byteaParameter. */
export async function upsertSourceFile(db: Queryable, file: StoredFile, content: Uint8Array): Promise<void> {
  await db.query(
    `INSERT INTO source_files (source_id, workspace_id, public_id, filename, media_type, bytes, sha256, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, decode($8, 'base64'))
     ON CONFLICT (source_id) DO UPDATE SET filename = EXCLUDED.filename, media_type = EXCLUDED.media_type, bytes = EXCLUDED.bytes,
       sha256 = EXCLUDED.sha256, content = EXCLUDED.content, updated_at = now()`,
    [file.sourceId, file.workspaceId, file.publicId, file.filename, file.mediaType, file.bytes, file.sha256, byteaParameter(content)],
  );
}

/** A source's file without its bytes. */
export async function findSourceFile(db: Queryable, sourceId: string): Promise<StoredFile | null> {
  const { rows } = await db.query<FileRow>(`SELECT ${COLUMNS} FROM source_files WHERE source_id = $1`, [sourceId]);
  return rows[0] ? toFile(rows[0]) : null;
}

/** A source's file with its bytes (the indexing job reads it). */
export async function findSourceFileContent(db: Queryable, sourceId: string): Promise<StoredFileContent | null> {
  const { rows } = await db.query<FileRow>(`SELECT ${COLUMNS}, content FROM source_files WHERE source_id = $1`, [sourceId]);
  return rows[0] ? toContent(rows[0]) : null;
}

/** A file as visitors fetch it, by its public id. */
export async function findPublicFileContent(db: Queryable, publicId: string): Promise<StoredFileContent | null> {
  const { rows } = await db.query<FileRow>(`SELECT ${COLUMNS}, content FROM source_files WHERE public_id = $1`, [publicId]);
  return rows[0] ? toContent(rows[0]) : null;
}

