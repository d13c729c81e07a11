import { FetchError } from "../../network/fetch-error.js";

/**
 * Parses a URL the crawler may fetch: absolute, http: or https:. The fragment and any
 * user:password part are dropped (neither is ever sent to the server).
 */
export function parseCrawlUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new FetchError("invalid_url", `not a valid URL: ${String(input).slice(0, 200)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchError("invalid_url", `only http and https URLs can be crawled, not ${url.protocol}`);
  }
  if (url.hostname === "") throw new FetchError("invalid_url", `URL has no host: ${url.href}`);
  url.hash = "";
  url.username = "";
  url.password = "";
  return url;
}
