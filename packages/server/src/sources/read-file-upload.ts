import type { FastifyRequest } from "fastify";
import { readMultipartFile, type UploadedFile } from "../http/multipart-file.js";

/** A file source's uploaded file. */
export type FileUpload = UploadedFile;

const FIELD_NAMES: ReadonlySet<string> = new Set(["agent_id", "kind", "title", "source_url", "csv_mode"]);

/** preValidation of a file source's POST or PUT (the Sources API, the console): its fields and file (readMultipartFile). */
export function readMultipartSource(request: FastifyRequest, maxBytes: number): Promise<void> {
  return readMultipartFile(request, {
    maxBytes,
    tooLargeMessage: `The file is larger than the upload limit of ${maxBytes} bytes (FRONTDESK_UPLOAD_MAX_BYTES).`,
    fieldNames: FIELD_NAMES,
    unnamed: "upload",
  });
}
