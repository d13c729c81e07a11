import { createHash, randomBytes } from "node:crypto";

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 without the letters read as others (no I, L, O, U). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Ten codes of 12 characters in three groups (`7KQ4-M2XD-9RTA`), 60 random bits each: shown once, stored hashed. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(12);
    const characters = [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join("");
    return `${characters.slice(0, 4)}-${characters.slice(4, 8)}-${characters.slice(8, 12)}`;
  });
}

/** How a typed code is compared: upper case, without spaces or dashes (a mistyped O or I still reads as 0 or 1). */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/** The stored form: SHA-256 of the normalized code (60 random bits need no slow hash; the back-off limits guessing). */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("base64url");
}
