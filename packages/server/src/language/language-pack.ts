/**
 * Everything Frontdesk knows about one language, in one place: the words that carry no meaning,
 * what small talk and asking for a person sound like, the fixed replies, how a sentence points back
 * at the one before it, how a message continues the previous one, how to recognise the language,
 * and Postgres's text-search configuration for it. One file per language under `packs/`, registered
 * in `language-packs.ts`: adding a language is adding its file there.
 *
 * Word lists are written as visitors type them (lower case, without vowel marks in Arabic and
 * Hebrew): messages are compared after lower-casing and turning punctuation and marks into spaces.
 */
export type SmallTalkKind = "greeting" | "thanks" | "goodbye" | "acknowledgement";

/** Why the bot cannot answer: nothing in the knowledge matched, or something matched but too weakly to trust. */
export type UnsureReason = "nothing_found" | "doubtful_match";

/** A kind of fact a question may ask for: a duration ("how long"), an amount ("how much"), a time ("what time"). */
export type AskedKind = "duration" | "amount" | "time";

export interface AskedKindWords {
  /** The question asks for the kind, tried in this order. */
  asks: ReadonlyArray<readonly [AskedKind, RegExp]>;
  /** The words that ask for a kind and say nothing of what it is about: "long" in "how long". */
  askingWords: Readonly<Record<AskedKind, readonly string[]>>;
  /** A text states a fact of the kind: "2 years", "£35", "9am to 5:30pm". */
  holds: Readonly<Record<AskedKind, RegExp>>;
  /** A question asking a second thing after "and" ("Do you deliver to Germany and what does it cost?"). */
  secondAsk: RegExp;
}

/** The words of the e-mails Frontdesk sends (src/mail/), in the agent's language. Names are inserted as plain text. */
export interface MailWords {
  /** Writing direction of the language (the HTML part's `dir`). */
  direction: "ltr" | "rtl";
  /** To operators: a visitor asks for a person and nobody is online. */
  personRequestedSubject: (agent: string) => string;
  personRequestedIntro: (agent: string) => string;
  /** To the operator who has a conversation: the visitor wrote and the operator has not read it. */
  unseenVisitorMessageSubject: (agent: string) => string;
  unseenVisitorMessageIntro: (agent: string) => string;
  /** The hourly digest of such alerts. */
  digestSubject: (count: number) => string;
  digestIntro: string;
  reasonLabel: string;
  lastMessageLabel: string;
  pageLabel: string;
  openConversation: string;
  /** Why an operator gets these, and where to change it. */
  operatorFooter: string;
  /** To a visitor who left: an operator's reply. */
  replySubject: (operator: string, agent: string) => string;
  replyIntro: (operator: string) => string;
  continueConversation: string;
  /** To a visitor: the conversation's transcript. */
  transcriptSubject: (agent: string) => string;
  transcriptIntro: (agent: string) => string;
  /** The visitor's own lines in a transcript. */
  you: string;
  /** Why a visitor gets this mail. */
  visitorFooter: string;
  /** To admins: answer tests that passed in the previous run fail now (the tests' questions follow, each with why). */
  answerTestsRegressedSubject: (agent: string, count: number) => string;
  answerTestsRegressedIntro: (agent: string) => string;
  openAnswerTests: string;
  /** To an operator: a colleague mentioned them in an internal note of a conversation with an agent (the note follows). */
  mentionedSubject: (author: string) => string;
  mentionedIntro: (author: string, agent: string) => string;
}

export interface LanguagePack {
  /** The primary language subtag (BCP 47): `en`, `fr`, `ar`. */
  code: string;
  /** Postgres's text-search configuration for the language, `simple` when Postgres has none. */
  textSearchConfig: string;
  /** Function words that say nothing about what is asked. */
  stopWords: readonly string[];
  /** Shorter words are taken for function words too (a short or missing stop-word list leaves many). */
  minContentWordLength: number;
  smallTalk: {
    /** Messages that are nothing but a greeting, a thank-you, a goodbye or an acknowledgement. */
    phrases: Readonly<Record<SmallTalkKind, readonly string[]>>;
    /** The bot's answer to each. */
    replies: Readonly<Record<SmallTalkKind, string>>;
    /** Words that may follow a greeting or a thank-you without making it a question ("thanks again"). */
    addressees: readonly string[];
  };
  /** Asking for a person in words ("can I talk to a human?"). */
  personRequest: {
    /** Who may be asked for, with what may come before it: `a`, `real`, `human`. Every language's words are read together. */
    articles: readonly string[];
    adjectives: readonly string[];
    nouns: readonly string[];
    /** The ways of asking, given the pattern of who (every language's articles, adjectives and nouns); each must hold the whole request. */
    patterns: (person: string) => readonly RegExp[];
  };
  /** Saying yes, as a whole message ("yes please"): the answer to the unsure bot's offer of a person. */
  yes: readonly string[];
  /**
   * What the bot says when the site does not answer the question. `doubtful_match` follows the
   * pages it offers (`pageReplies.mayHelp`), so it says the bot is unsure they answer.
   */
  unsureReplies: Readonly<Record<UnsureReason, string>>;
  /** How an extractive reply names the pages it quotes or offers, by their titles (without the site's name). */
  pageReplies: {
    /** Leads what the reply quotes from a page: "From our Returns page:". */
    quoting: (page: string) => string;
    /** Offers doubtful matches for the visitor to judge, without quoting them: "This page may help: Returns". */
    mayHelp: (pages: readonly string[]) => string;
  };
  /** Words opening a sentence that only makes sense after the one before it ("It takes 3 days."). */
  backReference: RegExp;
  /** Words opening a message that continues the previous one ("and to Germany?"). */
  continuation: RegExp | null;
  /** Words pointing back at the previous message ("is it free?"). */
  pointingBack: RegExp | null;
  /** How a message in the language is recognised (see `detectLanguage`). */
  detection: {
    /** The letters of a script only this language (of Frontdesk's) writes in: a message mostly in it is in the language. */
    script?: RegExp;
    functionWords: readonly string[];
    /** Beginnings of the words of short help-desk questions ("livr" for "livrez-vous"). */
    helpDeskWords: readonly string[];
    /** Spellings typical of the language's words. */
    spelling: RegExp | null;
    /** Letters only some of the languages use. */
    letters: RegExp | null;
  };
  /** The kinds of fact a question asks for, where the language has rules for them. */
  askedKinds?: AskedKindWords;
  /** The e-mails' words. */
  mail: MailWords;
}
