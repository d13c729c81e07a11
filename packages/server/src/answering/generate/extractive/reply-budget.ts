import type { QuotableSentence, SelectionLimits, SentenceUnit } from "./chosen-sentence.js";

/** Cuts a sentence at the last word boundary that fits, marking the cut. */
function shorten(sentence: QuotableSentence, maxCharacters: number): QuotableSentence {
  if (sentence.text.length <= maxCharacters) return sentence;
  const cut = sentence.text.slice(0, maxCharacters - 1);
  const boundary = cut.search(/\s+\S*$/);
  return { ...sentence, text: `${(boundary > 0 ? cut.slice(0, boundary) : cut).trimEnd()}…` };
}

/** The units chosen for a reply, their sentences counted against the limits. */
export class Reply {
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
