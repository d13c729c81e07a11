/** A parsed `Content-Type` header: the lower-cased media type and the charset parameter. */
export interface ContentType {
  mediaType: string;
  charset: string | undefined;
}

/** Parses a `Content-Type` header value; undefined when the header is missing or empty. */
export function parseContentType(header: string | undefined): ContentType | undefined {
  if (header === undefined) return undefined;
  const [type = "", ...parameters] = header.split(";");
  const mediaType = type.trim().toLowerCase();
  if (mediaType === "") return undefined;
  let charset: string | undefined;
  for (const parameter of parameters) {
    const separator = parameter.indexOf("=");
    if (separator < 0 || parameter.slice(0, separator).trim().toLowerCase() !== "charset") continue;
    const value = parameter.slice(separator + 1).trim().replace(/^"(.*)"$/, "$1").trim();
    if (value !== "") charset = value;
  }
  return { mediaType, charset };
}

/** First value of a response header, whatever shape the HTTP client gave it. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
