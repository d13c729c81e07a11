/** A CSV record with the line of the file it starts on (1 for the first). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export type CsvParse = { ok: true; records: CsvRecord[] } | { ok: false; line: number; message: string };

/**
 * Parses CSV text as RFC 4180 says: fields separated by commas, records by CRLF or LF, a field in
 * double quotes may hold commas, line breaks and doubled quotes. A byte-order mark is skipped and
 * empty lines are left out. An unclosed quote, or text after a closing quote, is an error naming
 * its line: past it, nothing can be read reliably.
 */
export function parseCsv(text: string): CsvParse {
  const records: CsvRecord[] = [];
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let line = 1;
  let index = 0;
  while (index < input.length) {
    const start = line;
    const fields: string[] = [];
    let field = "";
    let ended = false;
    while (!ended) {
      if (input[index] === '"') {
        index += 1;
        for (;;) {
          if (index >= input.length) return { ok: false, line: start, message: "a quoted field is not closed" };
          const char = input[index]!;
          if (char === '"') {
            if (input[index + 1] === '"') {
              field += '"';
              index += 2;
              continue;
            }
            index += 1;
            break;
          }
          if (char === "\n") line += 1;
          field += char;
          index += 1;
        }
        const next = input[index];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") return { ok: false, line, message: "text after a closing quote" };
      } else {
        while (index < input.length && input[index] !== "," && input[index] !== "\n" && input[index] !== "\r") field += input[index++];
      }
      fields.push(field);
      field = "";
      const separator = input[index];
      if (separator === ",") {
        index += 1;
        continue;
      }
      if (separator === "\r") index += 1;
      if (input[index] === "\n") index += 1;
      line += 1;
      ended = true;
    }
    if (!(fields.length === 1 && fields[0]!.trim() === "")) records.push({ line: start, fields });
  }
  return { ok: true, records };
}
