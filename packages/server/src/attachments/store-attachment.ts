import { newId } from "../db/ids.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { insertAttachment, type StoredAttachment, type Uploader } from "./attachment-repository.js";
import { detectAttachmentMediaType, storedFilename } from "./media-type.js";
import type { AttachmentUpload } from "./read-attachment-upload.js";
import { stripImageMetadata } from "./strip-image-metadata.js";

/**
 * POST /widget/attachments and /console/conversations/{id}/attachments: checks the file read by
 * readAttachmentUpload (its type by its content: 415; its size was checked while it was read: 413),
 * re-encodes an image without its metadata, and stores it in the conversation, unsent (its
 * `message_id` is null until a message claims it). Refused files leave nothing behind: nothing is
 * written before every check passed. The file never reaches an answer model.
 */
export async function storeAttachment(
  services: Services,
  owner: { workspaceId: string; conversationId: string; uploader: Uploader },
  upload: AttachmentUpload | undefined,
): Promise<StoredAttachment> {
  if (!upload) throw new AppError("validation_failed", "The request is invalid.", { file: ["send the file as the part file of a multipart/form-data body"] });
  if (upload.bytes.byteLength === 0) throw new AppError("validation_failed", "The request is invalid.", { file: ["is empty"] });
  const mediaType = await detectAttachmentMediaType(upload.bytes);
  const content = mediaType === "application/pdf" ? upload.bytes : await stripImageMetadata(upload.bytes, mediaType);
  return insertAttachment(services.db, {
    id: newId("att"),
    workspaceId: owner.workspaceId,
    conversationId: owner.conversationId,
    uploader: owner.uploader,
    filename: storedFilename(upload.filename, mediaType),
    mediaType,
    content,
  });
}
