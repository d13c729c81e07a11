import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

/** A file part read whole from a multipart/form-data request, at most its limit. */
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The file of a multipart request, once `readMultipartFile` has read it. */
    uploadedFile?: UploadedFile;
  }
}

/** What a route's upload takes: its size limit, how passing it is told, the text fields it reads, a name for a nameless file. */
export interface MultipartFileRules {
  maxBytes: number;
  /** The 413 `file_too_large` message (names the setting of the limit). */
  tooLargeMessage: string;
  /** The text fields copied into the body to validate; others are ignored. */
  fieldNames: ReadonlySet<string>;
  /** The body's `file` when the part came without a file name. */
  unnamed: string;
}

/** Multipart parsing for a plugin whose POST takes a file (a file source, an attachment). */
export async function registerMultipartFiles(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
}

function translate(error: unknown, rules: MultipartFileRules): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: unknown } | null)?.code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return new AppError("file_too_large", rules.tooLargeMessage);
    case "FST_FILES_LIMIT":
      return new AppError("validation_failed", "The request is invalid.", { file: ["send one file per request"] });
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
    case "FST_PROTO_VIOLATION":
      return new AppError("validation_failed", "The request is invalid.", { body: ["has too many or unknown form fields"] });
    default:
      return new AppError("bad_request", "The multipart/form-data body could not be read.");
  }
}

/**
 * preValidation of a multipart POST, once the caller is authenticated: reads its fields and its one
 * file part `file` (streamed, refused with 413 `file_too_large` as soon as it passes the limit,
 * without reading the rest: nothing is stored), and leaves the named fields, with the file's name
 * as `file`, as the body to validate. Not multipart: nothing to do (validation says what is missing).
 */
export async function readMultipartFile(request: FastifyRequest, rules: MultipartFileRules): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  const fieldCount = rules.fieldNames.size + 4;
  try {
    const parts = request.parts({ limits: { fileSize: rules.maxBytes, files: 1, fields: fieldCount, fieldSize: 8 * 1024, parts: fieldCount + 1 } });
    for await (const part of parts) {
      if (part.type === "file") {
        if (part.fieldname !== "file") {
          part.file.resume();
          throw new AppError("validation_failed", "The request is invalid.", { file: [`the file part must be named file, not ${part.fieldname}`] });
        }
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new AppError("file_too_large", rules.tooLargeMessage);
        request.uploadedFile = { filename: part.filename, bytes };
      } else if (rules.fieldNames.has(part.fieldname) && typeof part.value === "string") {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw translate(error, rules);
  }
  request.body = { ...fields, ...(request.uploadedFile ? { file: request.uploadedFile.filename || rules.unnamed } : {}) };
}
