/** `[1]`, `[12]`, `[1, 2]` with the spaces or tabs before it. */
const MARKER = /[ \t]*\[(\d{1,2}(?:[ \t]*,[ \t]*\d{1,2})*)\]/g;
/** What a marker looks like before it is closed: `[`, `[1`, `[1,`, `[1, 2`. */
const MARKER_PREFIX = /^\[(?:\d{1,2}(?:[ \t]*,[ \t]*\d{1,2})*(?:[ \t]*,[ \t]*)?)?$/;
const TRAILING_SPACE = /[ \t]+$/;

/**
 * Removes `[n]` citation markers from streamed model text and records the numbers they cite.
 *
 * A marker can arrive split over several chunks (`" ["`, `"1"`, `"]."`), so an unclosed `[n`
 * at the end of a chunk is held back until the next chunk shows whether it closes as a marker;
 * spaces at the end of a chunk are held too, so the space before a removed marker goes with it
 * (`"ships fast [1]."` → `"ships fast."`). After a marker at the start of a line the spaces
 * that follow it are dropped. `flush()` releases what is still held at the end of the stream
 * (an unclosed `[12` is text after all); trailing spaces of the whole answer are dropped.
 */
export class CitationMarkerStripper {
  private held = "";
  /** The last character released, to know whether a marker stood at the start of a line. */
  private lastReleased = "";
  private dropLeadingSpace = false;
  private readonly numbers: number[] = [];

  /** The cited numbers, each once, in first-cited order. */
  get citedNumbers(): readonly number[] {
    return this.numbers;
  }

  /** Takes the next chunk of model text and returns the part that can be shown now. */
  push(chunk: string): string {
    const text = this.held + chunk;
    let safeEnd = text.length;
    const open = text.lastIndexOf("[");
    if (open !== -1 && MARKER_PREFIX.test(text.slice(open))) safeEnd = open;
    const spaces = TRAILING_SPACE.exec(text.slice(0, safeEnd));
    if (spaces !== null) safeEnd = spaces.index;
    this.held = text.slice(safeEnd);
    return this.release(text.slice(0, safeEnd));
  }

  /** Releases whatever is still held, at the end of the stream. */
  flush(): string {
    const rest = this.held.replace(TRAILING_SPACE, "");
    this.held = "";
    return this.release(rest);
  }

  private release(text: string): string {
    let visible = "";
    let from = 0;
    for (const match of text.matchAll(MARKER)) {
      visible += this.afterMarker(text.slice(from, match.index));
      for (const number of (match[1] ?? "").split(",")) this.cite(Number.parseInt(number.trim(), 10));
      const before = visible.length > 0 ? visible.slice(-1) : this.lastReleased;
      this.dropLeadingSpace = before === "" || before === "\n";
      from = match.index + match[0].length;
    }
    visible += this.afterMarker(text.slice(from));
    if (visible.length > 0) this.lastReleased = visible.slice(-1);
    return visible;
  }

  /** Drops the spaces right after a marker that began a line; they would indent the text. */
  private afterMarker(text: string): string {
    if (!this.dropLeadingSpace || text === "") return text;
    const trimmed = text.replace(/^[ \t]+/, "");
    if (trimmed !== "") this.dropLeadingSpace = false;
    return trimmed;
  }

  private cite(number: number): void {
    if (Number.isInteger(number) && !this.numbers.includes(number)) this.numbers.push(number);
  }
}
