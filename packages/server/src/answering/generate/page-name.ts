/** A retrieved page as a reply names it. */
export interface NamedPage {
  documentId: number;
  title: string;
  url: string;
}

/** Separators between a page's name and its site's in a title: "Returns | Acme Cycles", "Returns - GOV.UK". */
const TITLE_SEPARATORS = /\s+(?:[|\-–—·•»]|::)\s+/gu;

/** A name compared by its letters and digits only: "GOV.UK" and "gov.uk", "Click & Collect" and "Click and collect". */
const nameKey = (text: string): string =>
  text.toLowerCase().replace(/&/g, " and ").normalize("NFKD").replace(/[^\p{L}\p{N}]/gu, "");

/** The host's names read from its first label on: "www.acme-cycles.co.uk" gives "acmecycles", "acmecyclesco", "acmecyclescouk". */
function hostKeys(url: string): Set<string> {
  const keys = new Set<string>();
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return keys;
  }
  const labels = host.replace(/^www\./, "").split(".");
  // An IP address or a single-label host ("localhost") names no site.
  if (labels.length < 2 || labels.every((label) => /^\d+$/.test(label)) || host.includes(":")) return keys;
  for (let end = 1; end <= labels.length; end += 1) keys.add(nameKey(labels.slice(0, end).join("")));
  return keys;
}

interface TitlePart {
  text: string;
  start: number;
  end: number;
}

/** A title's parts between its separators, with where each stands in it. */
function partsOf(title: string): TitlePart[] {
  const parts: TitlePart[] = [];
  let start = 0;
  for (const separator of title.matchAll(TITLE_SEPARATORS)) {
    parts.push({ text: title.slice(start, separator.index), start, end: separator.index });
    start = separator.index + separator[0].length;
  }
  parts.push({ text: title.slice(start), start, end: title.length });
  return parts;
}

/**
 * How a reply names a page: its title without the site's name, as most sites write titles
 * ("Returns | Acme Cycles" is the "Returns" page). Indexing already drops a site's name it can
 * tell (`ingest/extract/page-title.ts`); this catches what it could not, or what was indexed
 * before it did: a first or last part of the title that names the page's host, or that the other
 * retrieved pages' titles end (or begin) with too (their common suffix is the site's name). A title
 * that is nothing but the site's name stays; a page without a title has no name (null).
 */
export function pageName(page: NamedPage, retrieved: readonly NamedPage[]): string | null {
  const title = page.title.trim();
  if (title === "") return null;
  const parts = partsOf(title);
  if (parts.length < 2) return title;
  const host = hostKeys(page.url);
  const others = [...new Map(retrieved.filter((other) => other.documentId !== page.documentId).map((other) => [other.documentId, partsOf(other.title.trim())])).values()];
  const endsOther = (part: TitlePart) => others.some((other) => other.length > 1 && nameKey(other.at(-1)?.text ?? "") === nameKey(part.text));
  const startsOther = (part: TitlePart) => others.some((other) => other.length > 1 && nameKey(other[0]?.text ?? "") === nameKey(part.text));
  const namesHost = (part: TitlePart) => host.has(nameKey(part.text));
  let kept = parts;
  while (kept.length > 1 && (namesHost(kept.at(-1)!) || endsOther(kept.at(-1)!))) kept = kept.slice(0, -1);
  while (kept.length > 1 && (namesHost(kept[0]!) || startsOther(kept[0]!))) kept = kept.slice(1);
  return title.slice(kept[0]!.start, kept.at(-1)!.end);
}
