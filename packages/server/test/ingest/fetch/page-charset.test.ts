import { describe, expect, test } from "vitest";
import { parseContentType } from "../../../src/ingest/fetch/content-type.js";
import { detectCharset } from "../../../src/ingest/fetch/page-charset.js";
import { decodeText } from "../../../src/ingest/fetch/text-decoding.js";

const ascii = (text: string) => Buffer.from(text, "latin1");

describe("detectCharset", () => {
  test("a byte-order mark wins over everything", () => {
    expect(detectCharset("windows-1252", Buffer.from([0xef, 0xbb, 0xbf, 0x41]), true)).toBe("utf-8");
    expect(detectCharset(undefined, Buffer.from([0xff, 0xfe, 0x41, 0x00]), true)).toBe("utf-16le");
  });

  test("then the header, then <meta>, then UTF-8", () => {
    const withMeta = ascii('<html><head><meta charset="iso-8859-2"></head>');
    expect(detectCharset("ISO-8859-1", withMeta, true)).toBe("windows-1252");
    expect(detectCharset(undefined, withMeta, true)).toBe("iso-8859-2");
    expect(detectCharset(undefined, withMeta, false)).toBe("utf-8");
    expect(detectCharset(undefined, ascii("<p>no declaration</p>"), true)).toBe("utf-8");
  });

  test("ignores unknown labels and a meta tag past the first 1024 bytes", () => {
    expect(detectCharset("no-such-charset", ascii("<p>x</p>"), true)).toBe("utf-8");
    expect(detectCharset(undefined, ascii(`${" ".repeat(1024)}<meta charset="windows-1252">`), true)).toBe("utf-8");
  });

  test("a meta tag claiming UTF-16 means UTF-8", () => {
    expect(detectCharset(undefined, ascii('<meta charset="utf-16">'), true)).toBe("utf-8");
  });
});

describe("decodeText", () => {
  test("decodes windows-1252 punctuation and € per WHATWG", () => {
    expect(decodeText(Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x96, 0x20, 0xe9, 0x81]), "windows-1252")).toBe(
      "\u20ac \u201cq\u201d \u2013 é\u0081",
    );
  });

  test("decodes other encodings with TextDecoder", () => {
    expect(decodeText(Buffer.from([0x93, 0xfa, 0x96, 0x7b]), "shift_jis")).toBe("日本");
    expect(decodeText(Buffer.from("naïve"), "utf-8")).toBe("naïve");
  });
});

describe("parseContentType", () => {
  test("lower-cases the media type and reads a quoted charset", () => {
    expect(parseContentType('Text/HTML; Charset="Shift_JIS"; boundary=x')).toEqual({
      mediaType: "text/html",
      charset: "Shift_JIS",
    });
    expect(parseContentType("application/xhtml+xml")).toEqual({ mediaType: "application/xhtml+xml", charset: undefined });
    expect(parseContentType("")).toBeUndefined();
    expect(parseContentType(undefined)).toBeUndefined();
  });
});
