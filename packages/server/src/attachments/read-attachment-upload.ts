import type { FastifyRequest } from "fastify";
import { readMultipartFile, type UploadedFile } from "../http/multipart-file.js";

/** An attachment's uploaded file. */
export type AttachmentUpload = UploadedFile;

const NO_FIELDS: ReadonlySet<string> = new Set();

/** preValidation of an attachment upload (the widget's, the console's): its one file part `file`; other fields are ignored. */
export function readAttachmentUpload(request: FastifyRequest, maxBytes: number): Promise<void> {
  return readMultipartFile(request, {
    maxBytes,
    tooLargeMessage: `The file is larger than the attachment limit of ${maxBytes} bytes (FRONTDESK_ATTACHMENT_MAX_BYTES).`,
    fieldNames: NO_FIELDS,
    unnamed: "attachment",
  });
}
