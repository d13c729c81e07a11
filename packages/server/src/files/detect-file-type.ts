import { loadOnFirstUse } from "../startup/load-on-first-use.js";
import { AppError } from "../http/app-error.js";

const loadFileType = loadOnFirstUse(() => import("file-type"));

/** The file kinds a file source can hold, by the media type stored with it. */
export const FILE_MEDIA_TYPES = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  markdown: "text/markdown",
  text: "text/plain",
  html: "text/html",
  csv: "text/csv",
} as const;
export type FileKind = keyof typeof FILE_MEDIA_TYPES;
export type FileMediaType = (typeof FILE_MEDIA_TYPES)[FileKind];

const TEXT_KIND_BY_EXTENSION: Record<string, FileKind> = {
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  text: "text",
  csv: "csv",
  html: "html",
  htm: "html",
};

const extensionOf = (filename: string): string => /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const looksLikeHtml = (bytes: Uint8Array): boolean =>
  /^\s*(?:<!doctype\s+html|<html[\s>])/i.test(Buffer.from(bytes.subarray(0, 512)).toString("utf8").replace(/^\uFEFF/, ""));

/**
 * The media type of an uploaded file, read from its content (magic bytes), never from its name:
 * PDF and DOCX by their signatures, the text kinds when the bytes are UTF-8 text (the name's
 * extension then says which dialect: Markdown, CSV, HTML or plain). Anything else is a 415
 * `unsupported_media_type`. The name's own claim is checked later, by the indexing job, so that a
 * file that is not what its name says ends as a failed source with its reason.
 */
export async function detectFileMediaType(bytes: Uint8Array, filename: string): Promise<FileMediaType> {
  const { fileTypeFromBuffer } = await loadFileType();
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime === FILE_MEDIA_TYPES.pdf) return FILE_MEDIA_TYPES.pdf;
  if (detected?.mime === FILE_MEDIA_TYPES.docx) return FILE_MEDIA_TYPES.docx;
  if (detected === undefined && isText(bytes)) {
    if (looksLikeHtml(bytes)) return FILE_MEDIA_TYPES.html;
    const kind = TEXT_KIND_BY_EXTENSION[extensionOf(filename)];
    return kind ? FILE_MEDIA_TYPES[kind] : FILE_MEDIA_TYPES.text;
  }
  const seen = detected ? `${detected.mime}` : "binary data of no known kind";
  throw new AppError(
    "unsupported_media_type",
    `The file's content is ${seen}; a file source takes PDF, DOCX, Markdown, plain text, HTML or CSV.`,
  );
}

/** What the file's name claims it is, when its extension is one of ours. */
export function kindClaimedByName(filename: string): FileKind | null {
  const extension = extensionOf(filename);
  if (extension === "pdf") return "pdf";
  if (extension === "docx") return "docx";
  return TEXT_KIND_BY_EXTENSION[extension] ?? null;
}

export function kindOfMediaType(mediaType: string): FileKind | null {
  const entry = Object.entries(FILE_MEDIA_TYPES).find(([, type]) => type === mediaType);
  return entry ? (entry[0] as FileKind) : null;
}
