/**
 * Forum and help-desk furniture that is not part of an answer: lead-ins ("Original answer:",
 * "Edit:", "@name"), sign-offs and signatures ("Thanks, Anna", "-- Mark", "Hope this helps!"),
 * and page chrome ("Was this article helpful?", "Posted by …", "Reply · Share", "This page explains …").
 */

/** Lead-ins removed from the start of a sentence, which is kept if enough is left. */
const LEAD_INS = [
  /^(?:original answer|answer|edit(?:ed)?|update[d]?|eta|tl;?dr|reply|re|quote|solution|accepted answer)\s*(?:\d+\s*)?[:：\-–—]\s*/iu,
  /^(?:@[\p{L}\p{N}_.-]+[\s,:]*)+/u,
];

/** Whole sentences that are sign-offs, signatures or page chrome. */
const DROPPED = [
  /^(?:--+|—|–)\s*\S.{0,40}$/u,
  /^(?:thanks|thank you|many thanks|cheers|regards|best regards|kind regards|best wishes|best|all the best|good luck|hth|ty)\b[\s,!.]*(?:[\p{Lu}][\p{L}'-]*[\s.!]*){0,3}$/iu,
  /^(?:hope (?:this|that|it) helps|i hope (?:this|that|it) helps|happy to help|let me know if (?:this|that|you)\b)/iu,
  /^(?:was this (?:article|answer|page) helpful|did this (?:answer|solve) your (?:question|problem)|helpful\?|yes\s*no$|rate this)/iu,
  /^(?:posted|asked|answered|edited|modified|last updated|updated)\s+(?:by|on|at|\d)/iu,
  /^(?:reply|share|report|quote|like|follow|flag)(?:\s*[·|•]\s*(?:reply|share|report|quote|like|follow|flag))*\s*$/iu,
  /^(?:sent from my \S+)/iu,
  /^(?:this|the following) (?:page|article|guide|section|post|help page) (?:explains|describes|tells you|covers|shows|is about|sets out|gives|will help)\b/iu,
];

/** Below this many letters, what a lead-in leaves, or a short line ("Online", "Reply"), is not a sentence. */
const MIN_LEFT = 12;

/**
 * The sentence without its lead-ins, or null when the whole sentence is boilerplate. Mentions
 * ("@anna") are also removed inside the sentence.
 */
export function withoutBoilerplate(sentence: string): string | null {
  let text = sentence.trim();
  for (const pattern of DROPPED) if (pattern.test(text)) return null;
  for (const pattern of LEAD_INS) text = text.replace(pattern, "");
  text = text.replace(/(^|\s)@[\p{L}\p{N}_.-]+:?(?=\s|$)/gu, "$1").replace(/\s{2,}/g, " ").trim();
  // A short line as written that announces a list ("You must:", "They repay:") is the page's own.
  const announcesList = text === sentence.trim() && /[:：]$/u.test(text);
  if (!announcesList && text.replace(/[^\p{L}]/gu, "").length < MIN_LEFT) return null;
  for (const pattern of DROPPED) if (pattern.test(text)) return null;
  // A lead-in removed from a sentence starting in lower case leaves it capitalised as a sentence.
  return text === sentence.trim() ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether a line is page furniture however it is used ("Reply · Share", "Was this article helpful?"), as a heading too. */
export function isFurniture(line: string): boolean {
  const text = line.trim();
  return DROPPED.some((pattern) => pattern.test(text));
}
