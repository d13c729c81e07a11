import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../http/app-error.js";

/** The file part of an attachment upload, read whole (at most the limit). */
export interface AttachmentUpload {
  filename: string;
  bytes: Buffer;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The file of a multipart attachment upload, once `readAttachmentUpload` has read it. */
    attachmentUpload?: AttachmentUpload;
  }
}

/** Multipart parsing for a plugin whose POST takes an attachment (the widget's, the console's). */
export async function registerAttachmentUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
}

export const fileTooLarge = (maxBytes: number): AppError =>
  new AppError("file_too_large", `The file is larger than the attachment limit of ${maxBytes} bytes (FRONTDESK_ATTACHMENT_MAX_BYTES).`);

function translate(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: unknown } | null)?.code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return fileTooLarge(maxBytes);
    case "FST_FILES_LIMIT":
      return new AppError("validation_failed", "The request is invalid.", { file: ["send one file per request"] });
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
    case "FST_PROTO_VIOLATION":
      return new AppError("validation_failed", "The request is invalid.", { body: ["has too many form fields"] });
    default:
      return new AppError("bad_request", "The multipart/form-data body could not be read.");
  }
}

/**
 * preValidation of an attachment upload, once the caller is authenticated: reads its one file part
 * `file`, streamed and refused with 413 `file_too_large` as soon as it passes `maxBytes` (the rest
 * is not read, nothing is stored), and leaves `{file: <its name>}` as the body to validate. Other
 * fields are ignored. Not multipart: nothing to do (the body's validation says what is missing).
 */
export async function readAttachmentUpload(request: FastifyRequest, maxBytes: number): Promise<void> {
  if (!request.isMultipart()) return;
  try {
    const parts = request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5 } });
    for await (const part of parts) {
      if (part.type !== "file") continue;
      if (part.fieldname !== "file") {
        part.file.resume();
        throw new AppError("validation_failed", "The request is invalid.", { file: [`the file part must be named file, not ${part.fieldname}`] });
      }
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw fileTooLarge(maxBytes);
      request.attachmentUpload = { filename: part.filename, bytes };
    }
  } catch (error) {
    throw translate(error, maxBytes);
  }
  request.body = request.attachmentUpload ? { file: request.attachmentUpload.filename || "attachment" } : {};
}
