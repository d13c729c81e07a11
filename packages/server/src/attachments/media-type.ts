import { attachmentMediaTypes, type AttachmentMediaType } from "@frontdesk/contracts";
import { loadOnFirstUse } from "../startup/load-on-first-use.js";
import { AppError } from "../http/app-error.js";

const loadFileType = loadOnFirstUse(() => import("file-type"));

const ACCEPTED = new Set<string>(attachmentMediaTypes);

/** The extension a stored file's name ends with, by its media type (the name says what the content is). */
export const EXTENSION_OF: Record<AttachmentMediaType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "application/pdf": "pdf",
};

/**
 * The media type of an attachment, read from its first bytes (magic numbers, file-type), never
 * from its name or the part's Content-Type: PNG, JPEG, WebP, GIF or PDF. Anything else (an HTML
 * page named photo.png, an SVG, a ZIP, text) is a 415 `unsupported_media_type` saying what it is.
 */
export async function detectAttachmentMediaType(bytes: Uint8Array): Promise<AttachmentMediaType> {
  const { fileTypeFromBuffer } = await loadFileType();
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && ACCEPTED.has(detected.mime)) return detected.mime as AttachmentMediaType;
  throw new AppError(
    "unsupported_media_type",
    `The file's content is ${detected ? detected.mime : "of no image or PDF kind"}; an attachment may be a PNG, JPEG, WebP or GIF image, or a PDF.`,
  );
}

/**
 * The name a file is stored and served under: the uploaded name's last segment without control
 * characters, at most 120 characters, ending with the extension of what the content is (so that
 * a download is never saved as something else, e.g. an HTML file).
 */
export function storedFilename(uploaded: string, mediaType: AttachmentMediaType): string {
  const base = (uploaded.split(/[\\/]/).pop() ?? "")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .trim()
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .slice(0, 120);
  return `${base === "" || base.startsWith(".") ? "attachment" : base}.${EXTENSION_OF[mediaType]}`;
}
