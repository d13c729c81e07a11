import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { SaxesParser } from "saxes";
import { FetchError } from "../../network/fetch-error.js";

export type SitemapKind = "urlset" | "sitemapindex";

export interface SitemapEntryHandlers {
  /** A `<loc>` of a `<url>` in a urlset; return false to stop reading. */
  onPage(loc: string): boolean;
  /** A `<loc>` of a `<sitemap>` in a sitemapindex; return false to stop reading. */
  onSitemap(loc: string): boolean;
}

export interface SitemapParseLimits {
  /** Entries read from one file (the protocol allows 50,000). */
  maxEntries: number;
  /** Uncompressed bytes read from one file (the protocol allows 50 MB). */
  maxBytes: number;
}

export interface SitemapParseResult {
  kind: SitemapKind;
  entries: number;
  /** True when a limit or a handler stopped the file before its end. */
  stoppedEarly: boolean;
  /** XML errors met and skipped over. */
  xmlErrors: number;
}

const gzipMagic = [0x1f, 0x8b] as const;
const maxXmlErrors = 100;

/**
 * Reads one sitemap file as a stream (plain or gzip, told apart by the magic bytes, not the
 * name) with a SAX parser, so a 50 MB file is never held as a DOM. Entity declarations are
 * not expanded (saxes does not process DTDs), so XXE and entity bombs are not a concern.
 * Throws `invalid_sitemap` when the root is neither `urlset` nor `sitemapindex`.
 */
export async function parseSitemapStream(
  chunks: AsyncIterable<Buffer>,
  handlers: SitemapEntryHandlers,
  limits: SitemapParseLimits,
  url: string,
): Promise<SitemapParseResult> {
  const parser = new SaxesParser({ position: false });
  const decoder = new TextDecoder("utf-8");
  const stack: string[] = [];
  let kind: SitemapKind | undefined;
  let rootSeen = false;
  let loc = "";
  let entries = 0;
  let xmlErrors = 0;
  let stop = false;
  let bytes = 0;

  parser.on("error", () => {
    xmlErrors += 1;
    if (xmlErrors > maxXmlErrors) stop = true;
  });
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    if (!rootSeen) {
      rootSeen = true;
      if (name !== "urlset" && name !== "sitemapindex") {
        throw new FetchError("invalid_sitemap", `${url} is not a sitemap (root element <${tag.name}>)`);
      }
      kind = name;
    }
    stack.push(name);
    if (name === "loc") loc = "";
  });
  const collectText = (text: string) => {
    if (stack[stack.length - 1] === "loc") loc += text;
  };
  parser.on("text", collectText);
  parser.on("cdata", collectText);
  parser.on("closetag", () => {
    const name = stack.pop();
    const parent = stack[stack.length - 1];
    if (name !== "loc" || stop) return;
    const entry = loc.trim();
    if (entry === "") return;
    if (kind === "urlset" && parent === "url") stop = !handlers.onPage(entry) || stop;
    else if (kind === "sitemapindex" && parent === "sitemap") stop = !handlers.onSitemap(entry) || stop;
    else return;
    entries += 1;
    if (entries >= limits.maxEntries) stop = true;
  });

  const source = await gunzipWhenCompressed(chunks);
  let stoppedEarly = false;
  for await (const chunk of source) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    bytes += buffer.length;
    const overCap = bytes > limits.maxBytes;
    const usable = overCap ? buffer.subarray(0, buffer.length - (bytes - limits.maxBytes)) : buffer;
    parser.write(decoder.decode(usable, { stream: true }));
    if (stop || overCap) {
      stoppedEarly = true;
      break;
    }
  }
  if (!stoppedEarly) {
    parser.write(decoder.decode());
    parser.close();
  }
  if (kind === undefined) throw new FetchError("invalid_sitemap", `${url} has no sitemap root element`);
  return { kind, entries, stoppedEarly, xmlErrors };
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(":");
  return (colon < 0 ? qualified : qualified.slice(colon + 1)).toLowerCase();
}

/** Peeks at the first bytes; a gzip stream is inflated on the fly. */
async function gunzipWhenCompressed(chunks: AsyncIterable<Buffer>): Promise<AsyncIterable<unknown>> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  const rest: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => iterator };
  async function* replay(): AsyncGenerator<Buffer, void, undefined> {
    try {
      if (first.done === true) return;
      yield first.value;
      yield* rest;
    } finally {
      // Stopping early must reach the body below, which then closes the connection.
      await iterator.return?.();
    }
  }
  const isGzip = first.done !== true && first.value[0] === gzipMagic[0] && first.value[1] === gzipMagic[1];
  if (!isGzip) return replay();
  return pipeline(Readable.from(replay()), createGunzip(), () => {});
}
