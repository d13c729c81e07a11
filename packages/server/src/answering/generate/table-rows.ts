/** The cells of a table row as ingest writes it (cells joined by ` | `). */
function cellsOf(row: string): string[] {
  return row.split(" | ").map((cell) => cell.trim());
}

/** A cell that holds nothing to read: empty, or a dash standing for "none". */
const EMPTY_CELL = /^[-–—]?$/u;

/**
 * A table row as a person would write it out, each value with its column's name from the header
 * row: "Carbon frames: 5 years" (two columns), "Road — Typical width: 28mm; Pressure (psi): 65–80",
 * "Thursday — Brookfield, Ashcombe, Westbury: 9:00–20:00; Elmford: 10:00–17:30" (the header may leave
 * out the first column's name), "Number of bikes 10–24: 12% off list price" (a label of figures
 * alone gets its column's name). Empty and dash cells are left out. Null when the header does not
 * fit the row, or may not be a header: then the row is quoted as written.
 */
export function rowWithHeader(header: string, row: string): string | null {
  const names = cellsOf(header);
  const values = cellsOf(row);
  const [label, ...rest] = values;
  if (label === undefined || rest.length === 0 || EMPTY_CELL.test(label)) return null;
  // The header names every column, or every column but the first (the rows' labels).
  const columns = names.length === values.length ? names.slice(1) : names.length === rest.length ? names : null;
  if (columns === null) return null;
  // Ingest does not say which row is a header: the first row of a table is taken for one only
  // where it names a column the row gives a figure in ("Full day" over "£60"). A table whose
  // first row is data ("Monday | 9–5" over "Tuesday | 9–6") is quoted as written.
  if (!rest.some((value, index) => /\d/u.test(value) && !/\d/u.test(columns[index] ?? ""))) return null;
  // A label of figures alone ("10–24") says what it counts by its column's name ("Number of bikes 10–24").
  const named = names.length === values.length && !/\p{L}/u.test(label) ? `${names[0]} ${label}` : label;
  if (rest.length === 1) return `${named}: ${rest[0]}`;
  const pairs = rest.flatMap((value, index) => (EMPTY_CELL.test(value) ? [] : [`${columns[index]}: ${value}`]));
  return pairs.length === 0 ? null : `${named} — ${pairs.join("; ")}`;
}
