import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../http/app-error.js";

/** A file part read whole from a multipart/form-data request, at most the upload limit. */
export interface FileUpload {
  filename: string;
  bytes: Buffer;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The file of a multipart request, once `readMultipartSource` has read it. */
    fileUpload?: FileUpload;
  }
}

const FIELD_NAMES = new Set(["agent_id", "kind", "title", "source_url", "csv_mode"]);

/** Multipart parsing for a plugin whose POST takes a file source (the Sources API, the console). */
export async function registerFileUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
}

function fileTooLarge(maxBytes: number): AppError {
  return new AppError("file_too_large", `The file is larger than the upload limit of ${maxBytes} bytes (FRONTDESK_UPLOAD_MAX_BYTES).`);
}

function translate(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return fileTooLarge(maxBytes);
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
 * preValidation for a multipart POST: reads the form's fields and its one file (streamed, refused
 * with 413 `file_too_large` as soon as it passes `maxBytes`, without reading the rest), and leaves
 * the fields as the body to validate, with the file's name as `file`. Not multipart: nothing to do.
 */
export async function readMultipartSource(request: FastifyRequest, maxBytes: number): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 8 * 1024, parts: 11 } });
    for await (const part of parts) {
      if (part.type === "file") {
        if (part.fieldname !== "file") {
          part.file.resume();
          throw new AppError("validation_failed", "The request is invalid.", { file: [`the file part must be named file, not ${part.fieldname}`] });
        }
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw fileTooLarge(maxBytes);
        request.fileUpload = { filename: part.filename, bytes };
      } else if (FIELD_NAMES.has(part.fieldname) && typeof part.value === "string") {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw translate(error, maxBytes);
  }
  request.body = { ...fields, ...(request.fileUpload ? { file: request.fileUpload.filename || "upload" } : {}) };
}
