/**
 * A page title read as its parts: the page's name and its site's, between separators ("Returns |
 * Acme Cycles", "1619 bursary fund - GOV.UK"). Shared by indexing, which drops a site's name it can
 * tell from the page (ingest/extract/page-title.ts), and the replies that name a page
 * (answering/generate/page-name.ts).
 */

/** Separators between a page's name and its site's in a title. */
const TITLE_SEPARATORS = /\s+(?:[|\-–—·•»]|::)\s+/gu;

export interface TitlePart {
  text: string;
  start: number;
  end: number;
}

/** A title's parts between its separators, with where each stands in it. */
export function titlePartsOf(title: string): TitlePart[] {
  const parts: TitlePart[] = [];
  let start = 0;
  for (const separator of title.matchAll(TITLE_SEPARATORS)) {
    parts.push({ text: title.slice(start, separator.index), start, end: separator.index });
    start = separator.index + separator[0].length;
  }
  parts.push({ text: title.slice(start), start, end: title.length });
  return parts;
}

/** A name compared by its letters and digits only: "GOV.UK" and "gov.uk", "Click & Collect" and "Click and collect". */
export const nameKey = (text: string): string =>
  text.toLowerCase().replace(/&/g, " and ").normalize("NFKD").replace(/[^\p{L}\p{N}]/gu, "");

/**
 * The names a host gives its site, read from its first label on: "www.acme-cycles.co.uk" gives
 * "acmecycles", "acmecyclesco" and "acmecyclescouk". An IP address or a single-label host
 * ("localhost") names no site.
 */
export function hostNameKeys(host: string): string[] {
  const labels = host.replace(/^www\./, "").split(".");
  if (labels.length < 2 || labels.every((label) => /^\d+$/.test(label)) || host.includes(":")) return [];
  const keys: string[] = [];
  for (let end = 1; end <= labels.length; end += 1) keys.push(nameKey(labels.slice(0, end).join("")));
  return keys;
}
