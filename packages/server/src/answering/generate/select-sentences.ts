import type { Passage } from "./answer-generator.js";
import { askedKindOf, askingWords, holdsKind, type AskedKind } from "./asked-kind.js";
import { isFurniture, withoutBoilerplate } from "./boilerplate.js";
import { contentStems, questionStemWeights, words } from "./content-words.js";
import { continuationOf, unitOf, type QuotableSentence, type SentenceUnit } from "./sentence-units.js";
import { splitPassage } from "./split-sentences.js";

export interface SelectionLimits {
  /** Only the best passages are read, and every passage of the best one's document. */
  maxPassages: number;
  /** A lead-in with its list, or a table row with its header, counts as one. */
  maxSentences: number;
  /** Of all chosen sentences together, not counting the spaces between them. */
  maxCharacters: number;
}

export const DEFAULT_SELECTION_LIMITS: SelectionLimits = { maxPassages: 3, maxSentences: 3, maxCharacters: 600 };

/** A sentence of a passage, verbatim but for forum lead-ins and a lone list item's marker (a too-long single sentence is cut at a word and ends in `…`). */
export interface ChosenSentence {
  /** Index in the request's passages (0 = best). */
  passageIndex: number;
  /** Index of the sentence within its passage. */
  position: number;
  /** Block (between blank lines) and line of the sentence in its passage. */
  block: number;
  line: number;
  documentId: number;
  text: string;
  /** For a table row, its table's header row (the first row of its block), or null when it is that row. */
  tableHeader?: string | null;
}

/** Units of fewer words are labels or navigation, not answers. */
const MIN_WORDS = 4;
/** Without any shared word, the best document's first sentences stand for it. */
const UNMATCHED_SENTENCES = 2;
const QUESTION_END = /[?？]["'”’»)\]]*$/u;
/** A question asking a second thing after "and" ("Do you deliver to Germany and what does it cost?"). */
const SECOND_ASK = /\b(?:and|also|or|but)\s+(?:what|how|when|where|which|who|why|can|could|do|does|is|are|will|would)\b/iu;

/**
 * The sentences of the passages read (the best `maxPassages`, and any later one of the best
 * passage's document: the reply comes from that document), each passage's in order, by passage as
 * given (none for a passage not read); duplicates (chunks overlap) are skipped after their first appearance.
 */
function sentencesOf(passages: readonly Passage[], language: string, limits: SelectionLimits): QuotableSentence[][] {
  const seen = new Set<string>();
  const bestDocument = passages[0]?.documentId;
  return passages.map((passage, passageIndex) => {
    if (passageIndex >= limits.maxPassages && passage.documentId !== bestDocument) return [];
    const split = splitPassage(passage.content, language);
    // Each table's header row (the first row of its block), with its columns' names read once.
    const headers = new Map<number, { position: number; text: string; stems: Set<string> }>();
    split.forEach((sentence, position) => {
      if (sentence.row && !headers.has(sentence.block)) headers.set(sentence.block, { position, text: sentence.text, stems: contentStems(sentence.text, language) });
    });
    return split.map((sentence, position): QuotableSentence => {
      const base = { passageIndex, position, block: sentence.block, line: sentence.line, documentId: passage.documentId, score: 0 };
      // List items and table rows are kept whole, however short ("- cash", "Saturday | 9:30–17:30"): their list or table is quoted together.
      const text = sentence.item || sentence.row ? sentence.text : withoutBoilerplate(sentence.text);
      const key = words(text ?? "").join(" ");
      // Headings, and questions (an FAQ's questions are its headings), are not answers.
      // A heading too short to be a sentence ("Online") still introduces its list: an item that cannot stand alone is quoted under it.
      if (text === null && sentence.heading && !isFurniture(sentence.text) && !seen.has(key)) {
        seen.add(key);
        return { ...base, text: sentence.text, kind: "heading", brief: true, stems: new Set() };
      }
      if (text === null || QUESTION_END.test(sentence.text) || seen.has(key)) return { ...base, text: sentence.text, kind: "skip", stems: new Set() };
      seen.add(key);
      if (sentence.heading) return { ...base, text, kind: "heading", stems: new Set() };
      const kind = sentence.item ? "item" : sentence.row ? "row" : /[:：]$/u.test(text) ? "lead-in" : "sentence";
      const stems = contentStems(text, language);
      if (kind !== "row") return { ...base, text, kind, stems };
      const header = headers.get(sentence.block);
      if (header === undefined || header.position === position) return { ...base, text, kind, stems, tableHeader: null };
      return { ...base, text, kind, stems, tableHeader: header.text, columnStems: header.stems };
    });
  });
}

/** Sentences that are scored (and may be quoted): not skipped, not headings. */
function isScored(sentence: QuotableSentence): boolean {
  return sentence.kind !== "skip" && sentence.kind !== "heading";
}

/**
 * Scores every sentence by the question's words it holds, each weighed by how specific it is in
 * general language (`questionStemWeights`) and by how few of the sentences read hold it (a word
 * on every line of the page says little).
 */
function score(sentences: readonly QuotableSentence[][], wanted: ReadonlyMap<string, number>): void {
  const all = sentences.flat().filter(isScored);
  const holding = new Map<string, number>();
  for (const sentence of all) for (const stem of sentence.stems) if (wanted.has(stem)) holding.set(stem, (holding.get(stem) ?? 0) + 1);
  const weight = (stem: string, count: number) => (wanted.get(stem) ?? 0) * Math.log(1 + all.length / count);
  for (const sentence of all) {
    sentence.score = 0;
    for (const [stem, count] of holding) if (sentence.stems.has(stem)) sentence.score += weight(stem, count);
  }
  // The row of a table that answers best by its own words is read with its columns' names too
  // ("Saturday | 9:00–17:30 | 9:30–17:30" under "Leeds, Manchester, Bristol | York" for the York
  // shop on Saturday); only that row, so that the table's other rows do not come along.
  const bestRows = new Map<string, QuotableSentence[]>();
  for (const row of all) {
    if (row.columnStems === undefined || row.score === 0) continue;
    const table = `${row.passageIndex} ${row.block}`;
    const best = bestRows.get(table);
    if (best === undefined || row.score > best[0]!.score) bestRows.set(table, [row]);
    else if (row.score === best[0]!.score) best.push(row);
  }
  for (const row of [...bestRows.values()].flat())
    for (const [stem, count] of holding) if (row.columnStems?.has(stem) && !row.stems.has(stem)) row.score += weight(stem, count);
}

/** A question of the message that asks for a kind of fact, with its content stems. */
interface KindAsked {
  kind: AskedKind;
  stems: ReadonlySet<string>;
}

/** The stems of the words asking for that kind ("long" in "how long"). */
function askingStems(kind: AskedKind, language: string): Set<string> {
  return contentStems(askingWords(kind, language).join(" "), language);
}

/**
 * The questions of a message that ask for a kind of fact ("Do you deliver to Germany? How much is
 * a gravel bike?" has one), each with its content stems but those asking for the kind.
 */
function kindsAsked(message: string, language: string): KindAsked[] {
  return message.split(/(?<=[?？])/u).flatMap((part) => {
    const kind = askedKindOf(part, language);
    if (kind === null) return [];
    const asking = askingStems(kind, language);
    return [{ kind, stems: new Set([...contentStems(part, language)].filter((stem) => !asking.has(stem))) }];
  });
}

/**
 * When the best sentence does not state the kind of fact a question asks for ("2 years" for "how
 * long", "£35" for "how much"), the one that does and holds most of that question's words (the
 * best scored among equals) counts it as one more of the question's words: as heavy as its most
 * specific one, and weighed like the words by how few of the sentences read state such a fact.
 * The words that ask for it ("long", "much") are not looked for, so without this a sentence about
 * the warranty in general beats the row that says how long it lasts. One sentence only: a table's
 * other rows do not come along with the one that answers.
 */
function scoreAskedKind(sentences: readonly QuotableSentence[], asked: KindAsked, wanted: ReadonlyMap<string, number>, language: string): void {
  if (wanted.size === 0) return;
  const read = sentences.filter(isScored);
  const best = read.reduce<QuotableSentence | undefined>((top, sentence) => (top === undefined || sentence.score > top.score ? sentence : top), undefined);
  if (best === undefined || best.score === 0 || holdsKind(best.text, asked.kind, language)) return;
  const shared = (sentence: QuotableSentence): number => [...asked.stems].filter((stem) => sentence.stems.has(stem)).length;
  const stating = read.filter((sentence) => shared(sentence) > 0 && holdsKind(sentence.text, asked.kind, language));
  // The one holding most of the question's words ("a full charge takes four hours" for "how long does a full battery charge take"), then the best scored.
  const closer = (a: QuotableSentence, b: QuotableSentence): boolean => shared(a) > shared(b) || (shared(a) === shared(b) && a.score > b.score);
  const chosen = stating.reduce<QuotableSentence | undefined>((top, sentence) => (top === undefined || closer(sentence, top) ? sentence : top), undefined);
  if (chosen === undefined) return;
  chosen.score += Math.max(...wanted.values()) * Math.log(1 + read.length / stating.length);
}

/** Page order: passages of one document by their place in it when retrieval tells it, else in retrieval order; sentences as written. */
function byPageOrder(passages: readonly Passage[]): (a: ChosenSentence, b: ChosenSentence) => number {
  return (a, b) => {
    const first = passages[a.passageIndex]?.chunkIndex;
    const second = passages[b.passageIndex]?.chunkIndex;
    const byPassage = first !== undefined && second !== undefined ? first - second : a.passageIndex - b.passageIndex;
    return byPassage || a.position - b.position;
  };
}

/** Cuts a sentence at the last word boundary that fits, marking the cut. */
function shorten(sentence: QuotableSentence, maxCharacters: number): QuotableSentence {
  if (sentence.text.length <= maxCharacters) return sentence;
  const cut = sentence.text.slice(0, maxCharacters - 1);
  const boundary = cut.search(/\s+\S*$/);
  return { ...sentence, text: `${(boundary > 0 ? cut.slice(0, boundary) : cut).trimEnd()}…` };
}

/** The questions of a message with words of their own ("Do you ship to Germany? How much is it?" has two). */
function questionsOf(message: string, language: string): Set<string>[] {
  return message
    .split(/[?？]+/u)
    .map((part) => contentStems(part, language))
    .filter((stems) => stems.size > 0);
}

/** The chosen units, their sentences counted against the limits. */
class Reply {
  readonly units: SentenceUnit[] = [];
  private sentences = 0;
  private characters = 0;

  constructor(private readonly limits: SelectionLimits) {}

  get room(): number {
    return this.limits.maxCharacters - this.characters;
  }

  get full(): boolean {
    return this.sentences >= this.limits.maxSentences;
  }

  holds(sentence: QuotableSentence): boolean {
    return this.units.some((unit) => unit.members.some((member) => member.passageIndex === sentence.passageIndex && member.position === sentence.position));
  }

  /** Adds the unit's sentences not already quoted, if they fit; the first unit always fits (a single sentence is shortened). */
  add(unit: SentenceUnit): boolean {
    const members = unit.members.filter((member) => !this.holds(member));
    if (members.length === 0) return false;
    const counted = Math.min(unit.sentences, members.length);
    if (this.sentences + counted > this.limits.maxSentences) return false;
    const length = members.reduce((sum, member) => sum + member.text.length, 0);
    if (this.units.length === 0 && length > this.room && members.length === 1) members[0] = shorten(members[0]!, this.room);
    else if (length > this.room) return false;
    this.units.push({ members, sentences: counted });
    this.sentences += counted;
    this.characters += members.reduce((sum, member) => sum + member.text.length, 0);
    return true;
  }

  removeLast(): SentenceUnit | undefined {
    const unit = this.units.pop();
    if (unit === undefined) return undefined;
    this.sentences -= unit.sentences;
    this.characters -= unit.members.reduce((sum, member) => sum + member.text.length, 0);
    return unit;
  }
}

/**
 * Chooses the sentences an extractive answer is made of, from the best document: the document of
 * the best-ranked passage holding a sentence that shares a content word with the question
 * (retrieval's order decides). Its sentences are scored by the question's words they hold, each
 * weighed by how specific it is (in general language, and among the sentences read: "swollen"
 * outweighs "battery" on a battery page; a table's best row by its own words is read with its
 * columns' names too), and those scoring at least half the best are taken
 * best first, each with what it cannot be read without (a list's lead-in or heading, a table's
 * header, the sentence a back-reference points to; see `unitOf`), the best one read on to the end
 * of its line, up to the limits, then put back in page order. Headings (but as a list's title),
 * questions in the page, labels and forum boilerplate are never quoted. A second document is
 * quoted only when the message asks several questions and one of them shares no word with what
 * the first document gave: then its best sentence for that question. A question asking how long,
 * how much or what time gets the sentence stating it (see `scoreAskedKind`). When no
 * sentence shares a word with the question, the best document's first sentences are used.
 * `context` (the previous message, for an elliptical follow-up) adds words to look for, but asks
 * nothing of its own. Pure and deterministic.
 */
export function selectSentences(
  question: string,
  passages: readonly Passage[],
  language: string,
  limits: SelectionLimits = DEFAULT_SELECTION_LIMITS,
  context: string | null = null,
): ChosenSentence[] {
  const weights = questionStemWeights(context === null ? question : `${context}\n${question}`, language);
  const asked = kindsAsked(question, language);
  // "time" in "what time do you close" asks for a time; a sentence holding "in good time" does not answer it.
  for (const { kind } of asked) for (const stem of askingStems(kind, language)) weights.delete(stem);
  const wanted = new Set(weights.keys());
  const sentences = sentencesOf(passages, language, limits);
  score(sentences, weights);
  const quotable = (sentence: QuotableSentence): SentenceUnit | null => {
    const unit = unitOf(sentences[sentence.passageIndex] ?? [], sentence.position, limits.maxCharacters, language);
    return unit !== null && words(unit.members.map((member) => member.text).join(" ")).length >= MIN_WORDS ? unit : null;
  };
  const candidates = sentences.flat().filter((sentence) => quotable(sentence) !== null);
  // The document is chosen by its best-ranked passage sharing a word with the question, even when
  // that sentence cannot be quoted (a lead-in whose list the chunk cut off).
  const quotableDocuments = new Set(candidates.map((candidate) => candidate.documentId));
  const main = sentences.flat().find((sentence) => sentence.score > 0 && quotableDocuments.has(sentence.documentId)) ?? candidates[0];
  if (main === undefined) return [];
  const own = candidates.filter((candidate) => candidate.documentId === main.documentId);
  const ownSentences = sentences.flat().filter((sentence) => sentence.documentId === main.documentId);
  for (const kind of asked) scoreAskedKind(ownSentences, kind, weights, language);
  const best = Math.max(...own.map((candidate) => candidate.score));
  // A list under a heading too short to be a sentence ("Online") is quoted for its best item only when that is the best answer.
  const underBriefHeading = (candidate: QuotableSentence) => quotable(candidate)?.members[0]?.brief === true;
  const ranked =
    best === 0
      ? own.slice(0, UNMATCHED_SENTENCES)
      : own.filter((candidate) => candidate.score >= best / 2 && (candidate.score === best || !underBriefHeading(candidate))).sort((a, b) => b.score - a.score);

  const reply = new Reply(limits);
  // When the first unit states the kind of fact the question asks for ("9:00–20:00" for "what time
  // …?"), the others must state one too: "The Leeds shop has an accessible toilet" does not join it.
  const onlyKind = asked.length === 1 && !SECOND_ASK.test(question) ? asked[0]!.kind : null;
  let kindStated: AskedKind | null = null;
  for (const candidate of ranked) {
    if (reply.full) break;
    const passage = sentences[candidate.passageIndex] ?? [];
    const unit = unitOf(passage, candidate.position, reply.room, language, best / 2);
    if (unit === null) continue;
    const text = unit.members.map((member) => member.text).join(" ");
    if (kindStated !== null && !holdsKind(text, kindStated, language)) continue;
    if (!reply.add(unit) || reply.units.length > 1) continue;
    if (onlyKind !== null && holdsKind(text, onlyKind, language)) kindStated = onlyKind;
    // The best sentence is read on to the end of its paragraph line, as a person quoting it would.
    const next = continuationOf(passage, candidate.position);
    if (next !== null && best > 0) reply.add({ members: [next], sentences: 1 });
  }

  const questions = questionsOf(question, language);
  if (best > 0 && questions.length >= 2) {
    const covered = new Set(reply.units.flatMap((unit) => unit.members.flatMap((member) => [...member.stems])));
    const unanswered = questions.find((stems) => ![...stems].some((stem) => covered.has(stem)));
    const coverage = (candidate: QuotableSentence): number => (unanswered === undefined ? 0 : [...unanswered].filter((stem) => candidate.stems.has(stem)).length);
    const second = candidates
      .filter((candidate) => candidate.documentId !== main.documentId && coverage(candidate) > 0)
      .sort((a, b) => coverage(b) - coverage(a) || b.score - a.score)[0];
    if (second !== undefined) {
      // The first document's last (least relevant) unit makes room, and comes back if the second does not fit.
      const removed = reply.units.length > 1 && reply.full ? reply.removeLast() : undefined;
      const unit = unitOf(sentences[second.passageIndex] ?? [], second.position, reply.room, language);
      if ((unit === null || !reply.add(unit)) && removed !== undefined) reply.add(removed);
    }
  }

  const inPageOrder = byPageOrder(passages);
  return reply.units
    .flatMap((unit) => unit.members)
    .sort((a, b) => (a.documentId === b.documentId ? inPageOrder(a, b) : a.documentId === main.documentId ? -1 : 1))
    .map(({ passageIndex, position, block, line, documentId, text, tableHeader }) =>
      tableHeader === undefined ? { passageIndex, position, block, line, documentId, text } : { passageIndex, position, block, line, documentId, text, tableHeader },
    );
}
