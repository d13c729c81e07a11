import { PASSWORD_MIN_LENGTH } from "@frontdesk/contracts";
import { dictionary } from "@zxcvbn-ts/language-common";
import { AppError } from "../http/app-error.js";

const COMMON_PASSWORD_COUNT = 1000;

/**
 * The 1,000 most common passwords, lower-cased: the head of the frequency-ranked `passwords-common`
 * list of @zxcvbn-ts/language-common (MIT; zxcvbn's list of leaked passwords, most frequent first).
 */
const commonPasswords = new Set(dictionary["passwords-common"].slice(0, COMMON_PASSWORD_COUNT).map((password) => password.toLowerCase()));

/** What is wrong with a new password: too short (in characters, not bytes), or one of the most common. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push(`must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (commonPasswords.has(password.toLowerCase())) problems.push("is one of the 1,000 most common passwords; choose another");
  return problems;
}

/** Throws 422 `validation_failed` with `fields.password` when the password may not be used. */
export function requireAcceptablePassword(password: string, field = "password"): void {
  const problems = passwordProblems(password);
  if (problems.length > 0) throw new AppError("validation_failed", "The password is not acceptable.", { [field]: problems });
}
