import { createHash } from "node:crypto";
import { AppError } from "../http/app-error.js";
import type { BackoffPolicy } from "../ratelimit/failure-backoff.js";
import type { Services } from "../services.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/**
 * Per account and client address: after five wrong passwords (typos) the next attempt waits 1 s, and
 * each further failure doubles the wait (2 s, 4 s …) up to 15 minutes. The key is the pair, so a guesser elsewhere never
 * slows the operator down at their own address, and the wait is capped: never a lock-out for good.
 */
export const ACCOUNT_AND_ADDRESS_BACKOFF: BackoffPolicy = { free: 5, firstWaitMs: SECOND, capMs: 15 * MINUTE, forgetAfterMs: DAY };
/**
 * Per account from every address (a guesser spreading over many addresses): after 30 failures, the
 * same doubling up to 15 minutes. Addresses the account signed in from in the last 30 days are
 * exempt, so a botnet holds back the guessing, not the operator at their usual desk.
 */
export const ACCOUNT_BACKOFF: BackoffPolicy = { free: 30, firstWaitMs: SECOND, capMs: 15 * MINUTE, forgetAfterMs: DAY };
/** Per client address over every account (spraying one password at many e-mails): after 30 failures, the doubling. */
export const ADDRESS_BACKOFF: BackoffPolicy = { free: 30, firstWaitMs: SECOND, capMs: 15 * MINUTE, forgetAfterMs: DAY };
/** How long a successful sign-in makes its address known to the account. */
export const KNOWN_ADDRESS_MS = 30 * DAY;

/** An e-mail as a key: lower-cased and hashed (no e-mail in Redis, bounded keys, no separator to forge). */
const accountKey = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");

/** The keys of one attempt: the account (any e-mail, known or not, so an unknown one is throttled alike), the address, and the pair. */
export interface SignInAttempt {
  email: string;
  address: string;
}

const keysOf = (attempt: SignInAttempt) => {
  const account = accountKey(attempt.email);
  return {
    pair: `signin:pair:${account}:${attempt.address}`,
    account: `signin:account:${account}`,
    address: `signin:address:${attempt.address}`,
    known: `signin:known:${account}:${attempt.address}`,
  };
};

/**
 * Refuses (429 `rate_limited` with Retry-After) an attempt that must still wait, before its password
 * is looked at: a correct password during the wait is refused too, so waiting is no oracle. The same
 * for an e-mail with an account and one without.
 */
export async function requireSignInAllowed(services: Services, attempt: SignInAttempt): Promise<void> {
  const failures = services.limiter.failures;
  const now = services.now().getTime();
  const keys = keysOf(attempt);
  const [pair, known] = await Promise.all([failures.state(keys.pair, now, ACCOUNT_AND_ADDRESS_BACKOFF), failures.remembers(keys.known, now)]);
  let blockedUntil = pair.blockedUntilMs;
  if (!known) {
    const [account, address] = await Promise.all([failures.state(keys.account, now, ACCOUNT_BACKOFF), failures.state(keys.address, now, ADDRESS_BACKOFF)]);
    blockedUntil = Math.max(blockedUntil, account.blockedUntilMs, address.blockedUntilMs);
  }
  if (blockedUntil <= now) return;
  const seconds = Math.max(1, Math.ceil((blockedUntil - now) / SECOND));
  throw new AppError("rate_limited", `Too many failed sign-ins; retry in ${seconds} seconds.`, undefined, { "Retry-After": String(seconds) });
}

/** A wrong password (or code): counted against the pair, the account and the address. */
export async function recordSignInFailure(services: Services, attempt: SignInAttempt): Promise<void> {
  const failures = services.limiter.failures;
  const now = services.now().getTime();
  const keys = keysOf(attempt);
  await Promise.all([
    failures.fail(keys.pair, now, ACCOUNT_AND_ADDRESS_BACKOFF),
    failures.fail(keys.account, now, ACCOUNT_BACKOFF),
    failures.fail(keys.address, now, ADDRESS_BACKOFF),
  ]);
}

/**
 * A sign-in that succeeded: the pair starts again from zero and the address becomes known to the
 * account. The account's and the address's counts stay (a success must not wipe a guesser's record).
 */
export async function recordSignInSuccess(services: Services, attempt: SignInAttempt): Promise<void> {
  const failures = services.limiter.failures;
  const now = services.now().getTime();
  const keys = keysOf(attempt);
  await Promise.all([failures.clear(keys.pair), failures.remember(keys.known, now, KNOWN_ADDRESS_MS)]);
}
