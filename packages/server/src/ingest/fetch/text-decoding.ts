/**
 * WHATWG windows-1252 for bytes 0x80–0x9F. Node 20.18.3+ decodes windows-1252 (and with it
 * the `latin1`, `iso-8859-1` and `ascii` labels) as ISO-8859-1, turning curly quotes, dashes
 * and € into C1 control characters (nodejs/node#60888). The five bytes windows-1252 leaves
 * unassigned (0x81, 0x8D, 0x8F, 0x90, 0x9D) keep their C1 code point, as the standard says.
 */
const windows1252High = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Decodes bytes with a WHATWG encoding name (as returned by `detectCharset`), never throwing. */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  const text = new TextDecoder(encoding).decode(bytes);
  if (encoding !== "windows-1252") return text;
  return text.replace(/[\u0080-\u009f]/g, (control) =>
    String.fromCharCode(windows1252High[control.charCodeAt(0) - 0x80] ?? control.charCodeAt(0)),
  );
}
