import { PASSWORD_MIN_LENGTH } from "@frontdesk/contracts";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as englishDictionary, translations } from "@zxcvbn-ts/language-en";
import { AppError } from "../http/app-error.js";

const COMMON_PASSWORD_COUNT = 1000;
/**
 * zxcvbn's score 3: "safely unguessable", at least 10^8 guesses (an online attacker held back by the
 * sign-in limits never gets near; an offline one against scrypt needs years of a core).
 */
const MINIMUM_SCORE = 3;
/** zxcvbn's cost grows with the length; past this it only reads the head (the rest cannot make it weaker). */
const ESTIMATED_LENGTH = 100;

/**
 * The 1,000 most common passwords, lower-cased: the head of the frequency-ranked `passwords-common`
 * list of @zxcvbn-ts/language-common (MIT; zxcvbn's list of leaked passwords, most frequent first).
 */
const commonPasswords = new Set(commonDictionary["passwords-common"].slice(0, COMMON_PASSWORD_COUNT).map((password) => password.toLowerCase()));

/**
 * The estimator: zxcvbn-ts with its common dictionaries (leaked passwords, names, Wikipedia's and
 * films' words, diceware) and English words, keyboard patterns, dates, sequences, repeats and l33t.
 */
const estimator = new ZxcvbnFactory({
  dictionary: { ...commonDictionary, ...englishDictionary },
  graphs: adjacencyGraphs,
  translations,
});

/** Why the estimator finds the password guessable, in a sentence an operator can act on. */
function weaknessOf(password: string, userInputs: string[]): string | null {
  const result = estimator.check(password.slice(0, ESTIMATED_LENGTH), userInputs);
  if (result.score >= MINIMUM_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  const why = warning ? `is too easy to guess: ${warning.replace(/\.$/, "")}` : "is too easy to guess";
  const advice = suggestions[0] ?? "Add another word or two; uncommon words are better.";
  return `${why}. ${advice}`;
}

/**
 * What is wrong with a new password: too short (in characters, not bytes), one of the most common,
 * or too easy to guess by zxcvbn's estimate (score below 3), with its reason. `userInputs` (the
 * operator's e-mail and name) count as known words.
 */
export function passwordProblems(password: string, userInputs: string[] = []): string[] {
  const problems: string[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push(`must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (commonPasswords.has(password.toLowerCase())) problems.push("is one of the 1,000 most common passwords; choose another");
  if (problems.length > 0) return problems;
  const weakness = weaknessOf(password, userInputs.filter((input) => input.length > 0));
  return weakness ? [weakness] : [];
}

/** Throws 422 `validation_failed` with `fields.password` when the password may not be used. */
export function requireAcceptablePassword(password: string, field = "password", userInputs: string[] = []): void {
  const problems = passwordProblems(password, userInputs);
  if (problems.length > 0) throw new AppError("validation_failed", "The password is not acceptable.", { [field]: problems });
}
