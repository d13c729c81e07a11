/** Soft hyphen, zero-width space, word joiner, byte-order mark, and control characters that are not spacing. */
const INVISIBLE_CHARACTERS = /[\u0000-\u0008\u000e-\u001f\u007f\u00ad\u200b\u2060\ufeff]/g;
/** Any whitespace but a line feed (non-breaking and ideographic spaces included). */
const SPACES_EXCEPT_NEWLINE = /[^\S\n]+/g;

/** `\r\n` and lone `\r` become `\n`; invisible characters go. */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(INVISIBLE_CHARACTERS, "");
}

/** All whitespace, line breaks included, becomes single spaces; the ends are trimmed. */
export function collapseSpaces(text: string): string {
  return normalizeText(text).replace(/\s+/g, " ").trim();
}

/**
 * Keeps line breaks but collapses the spaces within each line, trims each line and drops empty lines.
 * For text that was assembled from inline pieces and `<br>` breaks.
 */
export function collapseSpacesPerLine(text: string): string {
  return normalizeText(text)
    .split("\n")
    .map((line) => line.replace(SPACES_EXCEPT_NEWLINE, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}
