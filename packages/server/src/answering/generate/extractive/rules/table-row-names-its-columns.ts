import type { QuotableSentence } from "../chosen-sentence.js";
import type { ComposerRule } from "../composer-rule.js";

/**
 * The row of a table that answers best by its own words is read with its columns' names too: for
 * "when does the harbour shop close on Saturday?", the row "Saturday | 9:00–17:30 | 9:30–17:30"
 * under "Town centre | Harbour" also counts "harbour", so it beats a sentence that only names the
 * shop. Only that row (and those tied with it), so that the table's other rows do not come along.
 */
export const tableRowNamesItsColumns: ComposerRule = {
  name: "a table's best row is read with its columns' names",
  scoreSentences({ scored, weightOf, held }) {
    const bestRows = new Map<string, QuotableSentence[]>();
    for (const row of scored) {
      if (row.columnStems === undefined || row.score === 0) continue;
      const table = `${row.passageIndex} ${row.block}`;
      const best = bestRows.get(table);
      if (best === undefined || row.score > best[0]!.score) bestRows.set(table, [row]);
      else if (row.score === best[0]!.score) best.push(row);
    }
    for (const row of [...bestRows.values()].flat()) for (const stem of held) if (row.columnStems?.has(stem) && !row.stems.has(stem)) row.score += weightOf(stem);
  },
};
