import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * Attachments (issue 33, part 4): images and PDFs a visitor sends from the widget, files an
 * operator sends from the console. Their type is read from their content; images are re-encoded
 * without their metadata before they are stored.
 */
export const attachmentMediaTypes = ["image/png", "image/jpeg", "image/webp", "image/gif", "application/pdf"] as const;
export type AttachmentMediaType = (typeof attachmentMediaTypes)[number];

/** An attachment as the API shows it: where to fetch it, and what it is. */
export const attachmentSchema = z.object({
  id: z.string(),
  url: z
    .string()
    .describe(
      "Where the file is served. To a visitor (the upload's answer, the widget's messages, realtime, the export): a link that carries its own " +
        "short-lived `access` signature, so that an `<img>` can load it. In the console's reads: the console's own route, which the session cookie opens.",
    ),
  media_type: z.enum(attachmentMediaTypes).describe("Read from the file's content, never from its name."),
  bytes: z.number().int().describe("The size of the stored file (an image's size once re-encoded)."),
  filename: z.string().describe("The name it was uploaded with (for display and download only)."),
});
export type Attachment = z.infer<typeof attachmentSchema>;
export const attachmentResponseSchema = z.object({ data: attachmentSchema });

/** Ids of this conversation's uploads not yet sent with a message. */
export const attachmentIdsSchema = z
  .array(z.string().regex(/^att_[A-Za-z0-9]{1,64}$/, "must be an attachment id"))
  .max(10)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id")
  .describe("Uploads of this conversation (POST …/attachments) to send with the message, at most 10; each can be sent once.");

/** multipart/form-data with the file in the part `file` (the route reads it; `file` is its name). */
export const attachmentUploadBodySchema = z.object({
  file: z.string().min(1, "must be a file part of a multipart/form-data body").describe("The file: a part named `file` of the multipart/form-data body."),
});

export const attachmentParamsSchema = z.object({
  id: z.string().regex(/^att_[A-Za-z0-9]{1,64}$/, "must be an attachment id"),
  filename: z.string().max(1000),
});
export const attachmentAccessQuerySchema = z.object({
  access: z.string().max(200).optional().describe("The link's signature, as the API handed it out (`url`)."),
});

/** An attachment in the visitor's export: its metadata, and a link to its bytes (valid for an hour: export again for a new one). */
export const exportedAttachmentSchema = attachmentSchema.extend({
  conversation_id: z.string(),
  message_id: z.string().nullable().describe("The message it was sent with; null: uploaded and never sent."),
  uploaded_by: z.enum(["visitor", "operator"]),
  created_at: isoTimestampSchema,
});
