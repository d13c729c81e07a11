// What the page shows, sent as `page_context` with each message: its title, meta description,
// canonical URL and a schema.org Product from its JSON-LD, plus what the page added with
// Frontdesk.setContext(object). Read when a message is sent (the page may have changed since).

const MAX_TEXT = 500;
/** The service takes at most 16 KB of page context; what the page adds is kept well under it. */
const MAX_EXTRA_BYTES = 8 * 1024;

export interface ProductContext {
  name?: string;
  price?: string;
  currency?: string;
  availability?: string;
}

const text = (value: unknown): string | undefined => {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim().replace(/\s+/g, " ");
  return trimmed ? trimmed.slice(0, MAX_TEXT) : undefined;
};

const isType = (node: Record<string, unknown>, type: string) =>
  node["@type"] === type || (Array.isArray(node["@type"]) && node["@type"].includes(type));

/** Every object of a JSON-LD document (top level, arrays and @graph). */
function nodesOf(value: unknown, depth = 0): Record<string, unknown>[] {
  if (depth > 3 || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item) => nodesOf(item, depth + 1));
  const node = value as Record<string, unknown>;
  return [node, ...nodesOf(node["@graph"], depth + 1)];
}

/** The first schema.org Product of the page's JSON-LD: name, price, currency and availability (its last path segment). */
export function readProduct(document: Document): ProductContext | null {
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? "");
    } catch {
      continue;
    }
    const product = nodesOf(data).find((node) => isType(node, "Product"));
    if (!product) continue;
    const offers = nodesOf(product.offers)[0] ?? {};
    const availability = text(offers.availability);
    const found: ProductContext = {
      name: text(product.name),
      price: text(offers.price ?? offers.lowPrice),
      currency: text(offers.priceCurrency),
      availability: availability?.replace(/^.*\//, ""),
    };
    for (const key of Object.keys(found) as (keyof ProductContext)[]) if (found[key] === undefined) delete found[key];
    return found;
  }
  return null;
}

export function readPageContext(document: Document, extra: Record<string, unknown>): Record<string, unknown> {
  const description = document.querySelector('meta[name="description"]')?.getAttribute("content");
  const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute("href");
  let canonicalUrl: string | undefined;
  try {
    canonicalUrl = canonical ? new URL(canonical, document.baseURI).href : undefined;
  } catch {
    canonicalUrl = undefined;
  }
  const product = readProduct(document);
  const context: Record<string, unknown> = {};
  const title = text(document.title);
  if (title) context.title = title;
  if (text(description)) context.description = text(description);
  if (canonicalUrl && /^https?:/.test(canonicalUrl)) context.canonical_url = canonicalUrl;
  if (product) context.product = product;
  return { ...context, ...extra };
}

/** Frontdesk.setContext(object): merged into what was set before; an object that is not plain JSON (or too big) is refused. */
export function mergeExtraContext(current: Record<string, unknown>, added: unknown): Record<string, unknown> | string {
  if (added === null || typeof added !== "object" || Array.isArray(added)) return "setContext needs a plain object";
  let merged: Record<string, unknown>;
  try {
    merged = JSON.parse(JSON.stringify({ ...current, ...added })) as Record<string, unknown>;
  } catch {
    return "setContext needs an object that JSON can represent";
  }
  if (new TextEncoder().encode(JSON.stringify(merged)).length > MAX_EXTRA_BYTES) return `setContext takes at most ${MAX_EXTRA_BYTES / 1024} KB of JSON in all`;
  return merged;
}
