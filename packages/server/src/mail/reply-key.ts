import { randomInt } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const LENGTH = 24;

/**
 * A mail's reply key: 24 random lower-case letters and digits (about 124 bits), so that a reply
 * names its mail, and through it the conversation, without anyone being able to guess another's.
 * Lower case only: some mail servers fold the local part of an address to lower case.
 */
export function newReplyKey(): string {
  let key = "";
  for (let index = 0; index < LENGTH; index += 1) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

/** The Message-ID of a mail with `key`, under the sender's domain. */
export const messageIdFor = (key: string, fromAddress: string): string => `<fd.${key}@${fromAddress.slice(fromAddress.lastIndexOf("@") + 1)}>`;

const KEY = `[a-z0-9]{${LENGTH}}`;

/** The reply keys named by a reply's In-Reply-To and References (our Message-IDs), newest first. */
export function replyKeysInReferences(ids: readonly string[]): string[] {
  const keys: string[] = [];
  for (const id of [...ids].reverse()) {
    const match = new RegExp(`^<?fd\\.(${KEY})@`, "i").exec(id.trim());
    if (match && !keys.includes(match[1]!.toLowerCase())) keys.push(match[1]!.toLowerCase());
  }
  return keys;
}

/** The reply key in a recipient's sub-address (`reply+<key>@…`), if any. */
export function replyKeyOfAddress(address: string): string | null {
  const match = new RegExp(`\\+(${KEY})@`, "i").exec(address);
  return match ? match[1]!.toLowerCase() : null;
}
