/** How many leading bytes of an HTML page are searched for `<meta charset>`, as browsers do. */
const metaPrescanBytes = 1024;

const metaCharsetPattern = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i;

/**
 * Picks the encoding to decode a page with, in the order browsers use: a byte-order mark,
 * the `charset` of the Content-Type header, for HTML a `<meta charset>` or
 * `<meta http-equiv="Content-Type">` in the first 1024 bytes, else UTF-8.
 * Returns the WHATWG encoding name that `TextDecoder` uses (e.g. `windows-1252`).
 */
export function detectCharset(headerCharset: string | undefined, bytes: Uint8Array, isHtml: boolean): string {
  const fromBom = byteOrderMark(bytes);
  if (fromBom !== undefined) return fromBom;
  const fromHeader = supportedEncoding(headerCharset);
  if (fromHeader !== undefined) return fromHeader;
  if (isHtml) {
    const prescan = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, metaPrescanBytes));
    const fromMeta = supportedEncoding(metaCharsetPattern.exec(prescan.toString("latin1"))?.[1]);
    // A meta tag cannot truthfully declare UTF-16: it would not be readable as ASCII.
    if (fromMeta !== undefined) return fromMeta.startsWith("utf-16") ? "utf-8" : fromMeta;
  }
  return "utf-8";
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

function supportedEncoding(label: string | undefined): string | undefined {
  if (label === undefined || label.trim() === "") return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}
