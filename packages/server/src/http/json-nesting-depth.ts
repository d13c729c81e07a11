/** How deep a request body may nest arrays and objects: far beyond any real body, far below a stack overflow. */
export const MAX_JSON_NESTING_DEPTH = 64;

/**
 * Whether the JSON text nests arrays and objects deeper than `maxDepth`, found in one pass over
 * the text (brackets inside strings do not count) without parsing it. V8 parses any depth, but
 * everything that walks the value afterwards (validation, serialisation, Postgres's jsonb) recurses.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
