import { PASSWORD_MIN_LENGTH } from "@frontdesk/contracts";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { AppError } from "../http/app-error.js";

const COMMON_PASSWORD_COUNT = 1000;
/**
 * zxcvbn's score 3: "safely unguessable", at least 10^8 guesses (an online attacker held back by the
 * sign-in limits never gets near; an offline one against scrypt needs years of a core).
 */
const MINIMUM_SCORE = 3;
/** zxcvbn's cost grows with the length; past this it only reads the head (the rest cannot make it weaker). */
const ESTIMATED_LENGTH = 100;

interface PasswordRules {
  /** The 1,000 most common passwords, lower-cased. */
  commonPasswords: Set<string>;
  estimator: ZxcvbnFactory;
}

let rules: Promise<PasswordRules> | null = null;

/**
 * The rules' data, loaded on the first password checked, not when the process starts: zxcvbn-ts
 * decompresses its dictionaries when they are imported, about 0.2 s of CPU, a third of every
 * `frontdesk` command's start (`--version` 0.6 s), for the few processes that ever check one.
 *
 * The 1,000 most common passwords: the head of the frequency-ranked `passwords-common` list of
 * @zxcvbn-ts/language-common (MIT; zxcvbn's list of leaked passwords, most frequent first). The
 * estimator: zxcvbn-ts with its common dictionaries (leaked passwords, names, Wikipedia's and
 * films' words, diceware) and English words, keyboard patterns, dates, sequences, repeats and l33t.
 */
function passwordRules(): Promise<PasswordRules> {
  rules ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
    return {
      commonPasswords: new Set(common.dictionary["passwords-common"].slice(0, COMMON_PASSWORD_COUNT).map((password) => password.toLowerCase())),
      estimator: new ZxcvbnFactory({ dictionary: { ...common.dictionary, ...english.dictionary }, graphs: common.adjacencyGraphs, translations: english.translations }),
    };
  })();
  rules.catch(() => (rules = null));
  return rules;
}

/** Why the estimator finds the password guessable, in a sentence an operator can act on. */
function weaknessOf(estimator: ZxcvbnFactory, password: string, userInputs: string[]): string | null {
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
export async function passwordProblems(password: string, userInputs: string[] = []): Promise<string[]> {
  const { commonPasswords, estimator } = await passwordRules();
  const problems: string[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push(`must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (commonPasswords.has(password.toLowerCase())) problems.push("is one of the 1,000 most common passwords; choose another");
  if (problems.length > 0) return problems;
  const weakness = weaknessOf(estimator, password, userInputs.filter((input) => input.length > 0));
  return weakness ? [weakness] : [];
}

/** Throws 422 `validation_failed` with `fields.password` when the password may not be used. */
export async function requireAcceptablePassword(password: string, field = "password", userInputs: string[] = []): Promise<void> {
  const problems = await passwordProblems(password, userInputs);
  if (problems.length > 0) throw new AppError("validation_failed", "The password is not acceptable.", { [field]: problems });
}
