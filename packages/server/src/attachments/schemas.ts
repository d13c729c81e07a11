import { attachmentAccessQuerySchema, attachmentParamsSchema, attachmentResponseSchema, attachmentUploadBodySchema, conversationIdParamsSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { errorResponse, errors, jsonResponse, sessionErrors, sessionSecurity } from "../openapi/route-responses.js";

const fileTooLarge = errorResponse("`file_too_large`: the file is larger than FRONTDESK_ATTACHMENT_MAX_BYTES (10 MB by default); reading stopped there, nothing was stored.");
const unsupportedFile = errorResponse(
  "`unsupported_media_type`: the file's content (read from its bytes, never its name) is not a PNG, JPEG, WebP or GIF image or a PDF, or the image cannot be decoded; or the body is not multipart/form-data. Nothing was stored.",
);
const uploadDescription =
  "multipart/form-data with the file in the part `file`, at most FRONTDESK_ATTACHMENT_MAX_BYTES (10 MB). Its type is read from its " +
  "content: PNG, JPEG, WebP and GIF images, and PDF. An image is re-encoded without its metadata (EXIF with the camera and " +
  "GPS position, XMP, IPTC, comments, ICC profile), so `bytes` is the stored size. The upload waits in the conversation, unsent, " +
  "until a message names it in `attachment_ids`. Files are never given to an answer model.";

export const uploadVisitorAttachmentRouteSchema = {
  tags: ["widget"],
  operationId: "uploadAttachment",
  summary: "Upload a file to send in the conversation",
  description:
    `${uploadDescription} Send it with POST /messages or /messages/stream (\`attachment_ids\`). The answer's \`url\` is a link signed ` +
    "for an hour, which the visitor's browser can load in an `<img>` (see GET /api/v1/widget/attachments/{id}/{filename}). Counts against the session token's budget, " +
    "and against the conversation's uploads an hour (FRONTDESK_RATE_LIMIT_ATTACHMENTS_PER_HOUR, 20 by default).",
  security: sessionSecurity,
  consumes: ["multipart/form-data"],
  body: attachmentUploadBodySchema,
  response: {
    201: jsonResponse("The stored upload.", attachmentResponseSchema),
    ...sessionErrors,
    413: fileTooLarge,
    415: unsupportedFile,
  },
};

const fileResponse = { description: "The file's bytes, with the media type read from its content.", content: { "application/octet-stream": { schema: z.instanceof(Buffer) } } };
const servingHeaders =
  "Served with `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox; default-src 'none'` (nothing in it runs on this origin), " +
  "`Content-Disposition` (`inline` for an image, `attachment` for a PDF, which is downloaded, never rendered on this origin) and `Cache-Control: private`.";

export const serveAttachmentRouteSchema = {
  tags: ["widget"],
  operationId: "getAttachment",
  summary: "Download an attachment (the visitor's link)",
  description:
    "The file of an attachment, for the conversation's visitor: either with the link's own `access` signature (the `url` handed to the visitor, " +
    "valid for an hour: what an `<img>` loads) or with the conversation's session token (`Authorization: Bearer`). Anyone else, another " +
    `visitor included, gets 404. The name in the path is for the browser only. ${servingHeaders}`,
  security: [{}, ...sessionSecurity],
  params: attachmentParamsSchema,
  querystring: attachmentAccessQuerySchema,
  response: {
    200: fileResponse,
    404: errorResponse("`attachment_not_found`: no attachment with this id that this link or session may open (expired link, another conversation's session, none at all)."),
    422: errorResponse("`validation_failed`: the id cannot be an attachment id."),
    500: errors.internal,
  },
};

export const uploadOperatorAttachmentRouteSchema = {
  tags: ["console"],
  operationId: "uploadConsoleAttachment",
  summary: "Upload a file to send to the visitor",
  description: `${uploadDescription} Send it with POST …/conversations/{id}/messages (\`attachment_ids\`, the assignee's own uploads). Any operator of the workspace may upload.`,
  security: consoleSecurity,
  consumes: ["multipart/form-data"],
  params: conversationIdParamsSchema,
  body: attachmentUploadBodySchema,
  response: {
    201: jsonResponse("The stored upload (its `url` is the console's route).", attachmentResponseSchema),
    ...consoleWriteErrors,
    404: errorResponse("`conversation_not_found`: no conversation of the operator's workspace has this id."),
    413: fileTooLarge,
    415: unsupportedFile,
  },
};

export const serveConsoleAttachmentRouteSchema = {
  tags: ["console"],
  operationId: "getConsoleAttachment",
  summary: "Download an attachment (operators)",
  description: `The file of an attachment of the operator's workspace, opened by the console's session cookie; another workspace's attachment is 404. ${servingHeaders}`,
  security: consoleSecurity,
  params: attachmentParamsSchema,
  response: {
    200: fileResponse,
    ...consoleReadErrors,
    404: errorResponse("`attachment_not_found`: no attachment of the operator's workspace has this id."),
    422: errorResponse("`validation_failed`: the id cannot be an attachment id."),
  },
};
