import type { Citation } from "@frontdesk/contracts";
import type { Expectation } from "./answer-test-repository.js";

/** What the answering pipeline did with a test's question. */
export type TestedTurn =
  | { kind: "reply"; content: string; citations: readonly Citation[]; lowConfidence: boolean; error: string | null }
  | { kind: "handoff" };

export interface Verdict {
  passed: boolean;
  /** Why, in words an owner reads in a list: "cited /returns", "did not contain 'within 30 days'". */
  reason: string;
}

/** Spaces folded and case ignored: a phrase is found however the reply wraps or capitalises it. */
const folded = (text: string) => text.normalize("NFKC").toLocaleLowerCase("en").replace(/\s+/gu, " ").trim();

/** The path of a URL without its trailing slash ("/" stays), or null when it is not a URL. */
function pathOf(value: string): string | null {
  try {
    const path = new URL(value).pathname;
    return path.length > 1 ? path.replace(/\/+$/, "") : path;
  } catch {
    return null;
  }
}

/** An absolute URL without its fragment and trailing slash, its host in lower case (URL does that). */
function comparableUrl(value: string): string | null {
  try {
    const url = new URL(value);
    url.hash = "";
    return url.href.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

/**
 * Whether a cited URL is the expected page: an absolute expectation is compared as a URL (host in
 * any case, no fragment, trailing slash ignored); a path ("/returns") matches the cited page's path
 * on any host, as a site's own pages are cited by their full address.
 */
export function citesPage(expected: string, cited: string): boolean {
  if (expected.startsWith("/")) {
    const wanted = expected.length > 1 ? expected.replace(/\/+$/, "") : expected;
    return pathOf(cited) === wanted;
  }
  const wanted = comparableUrl(expected);
  return wanted !== null && wanted === comparableUrl(cited);
}

/** A cited page as a reason names it: its path when the expectation is a path, else its address. */
const named = (expected: string, cited: string) => (expected.startsWith("/") ? (pathOf(cited) ?? cited) : cited);

/**
 * Judges one reply against its test's expectation:
 * - `url`: one of the reply's citations is the page;
 * - `text`: the reply contains the phrase;
 * - `unsure`: the reply is unsure (low confidence) or the question went to a person.
 * A reply that broke off (the generator's error) fails a `url` or `text` test with that error.
 */
export function judgeAnswer(expect: Expectation, turn: TestedTurn): Verdict {
  if (expect.kind === "unsure") {
    if (turn.kind === "handoff") return { passed: true, reason: "handed over to a person" };
    if (turn.lowConfidence) return { passed: true, reason: "said it was unsure" };
    return { passed: false, reason: "answered confidently; expected unsure" };
  }
  const value = expect.value ?? "";
  if (turn.kind === "handoff") return { passed: false, reason: "handed the question over to a person" };
  if (turn.error !== null && turn.content.trim() === "") return { passed: false, reason: `the answer failed: ${turn.error}` };
  if (expect.kind === "url") {
    if (turn.citations.some((citation) => citesPage(value, citation.url))) return { passed: true, reason: `cited ${value}` };
    const cited = [...new Set(turn.citations.map((citation) => named(value, citation.url)))];
    return { passed: false, reason: cited.length === 0 ? `did not cite ${value} (cited nothing)` : `did not cite ${value} (cited ${cited.join(", ")})` };
  }
  if (folded(turn.content).includes(folded(value))) return { passed: true, reason: `contained '${value}'` };
  return { passed: false, reason: `did not contain '${value}'` };
}
