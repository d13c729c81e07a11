import type { Attachment } from "@frontdesk/contracts";
import type { AttachmentLinks } from "../auth/attachment-links.js";
import { CONSOLE_PREFIX } from "../console/console-prefix.js";
import type { StoredAttachment } from "./attachment-repository.js";

/** Where attachments are served to a visitor's browser (with `?access=`) and to API clients (with their session token): the widget API's. */
export const ATTACHMENTS_PREFIX = "/api/v1/widget/attachments";

/**
 * Who an attachment's URL is made for: the visitor (and anything they share a channel with: a link
 * signed for an hour) or the console (the console's route, which the session cookie opens; the
 * cookie is limited to the console's path, so the console has a route of its own).
 */
export type AttachmentAudience = "visitor" | "console";

/** What a URL is made with: where the service is reached (empty: a path), and the signer of visitors' links. */
export interface AttachmentLinkContext {
  publicUrl: string;
  links?: AttachmentLinks | undefined;
}

export function presentAttachment(context: AttachmentLinkContext, attachment: StoredAttachment, audience: AttachmentAudience): Attachment {
  const path = `${attachment.id}/${encodeURIComponent(attachment.filename)}`;
  const url =
    audience === "console" || context.links === undefined
      ? `${context.publicUrl}${CONSOLE_PREFIX}/attachments/${path}`
      : `${context.publicUrl}${ATTACHMENTS_PREFIX}/${path}?access=${context.links.sign(attachment.id)}`;
  return { id: attachment.id, url, media_type: attachment.mediaType, bytes: attachment.bytes, filename: attachment.filename };
}
