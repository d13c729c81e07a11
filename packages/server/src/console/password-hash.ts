import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt with N = 2^15, r = 8, p = 3 (32 MiB and about 0.15 s of one core per hash): one of the
 * settings OWASP's Password Storage Cheat Sheet lists as equivalent to its N = 2^17, r = 8, p = 1,
 * at a quarter of the memory. 16 random bytes of salt, 32 bytes of key. The stored form names its
 * parameters (`scrypt$N$r$p$salt$key`, base64url), so they can rise later without a migration.
 */
export const PASSWORD_HASH_PARAMETERS = { N: 2 ** 15, r: 8, p: 3, saltBytes: 16, keyBytes: 32 } as const;
const MAX_MEMORY_BYTES = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, keyBytes, { ...options, maxmem: MAX_MEMORY_BYTES }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, saltBytes, keyBytes } = PASSWORD_HASH_PARAMETERS;
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, keyBytes, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Whether `password` is the one `stored` was made from, compared in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the same work as checking a real password, for a sign-in whose e-mail is unknown (or
 * whose operator has no password yet), so the answer's timing does not tell whether it exists.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummyHash);
  return false;
}
