import { isIPv4, isIPv6 } from "node:net";

/** An IP address as its family and raw bytes (4 or 16 of them). */
export interface IpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

/**
 * Parses an IPv4 or IPv6 literal (URL brackets and an IPv6 zone are accepted and dropped).
 * Returns undefined for anything else, host names included.
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  let literal = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = literal.indexOf("%");
  if (zone >= 0) literal = literal.slice(0, zone);
  if (isIPv4(literal)) return { family: 4, bytes: Uint8Array.from(literal.split(".").map(Number)) };
  if (isIPv6(literal)) return { family: 6, bytes: parseIpv6(literal) };
  return undefined;
}

/** Dotted-quad text of 4 bytes. */
export function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join(".");
}

/** Uncompressed hexadecimal text of 16 bytes (e.g. `0:0:0:0:0:ffff:7f00:1`). */
export function formatIpv6(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2) {
    groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  }
  return groups.join(":");
}

/** Text of an address that `net.BlockList` accepts. */
export function formatIpAddress(address: IpAddress): string {
  return address.family === 4 ? formatIpv4(address.bytes) : formatIpv6(address.bytes);
}

/** Expands a syntactically valid IPv6 literal (already checked by `isIPv6`) to 16 bytes. */
function parseIpv6(literal: string): Uint8Array {
  const lastColon = literal.lastIndexOf(":");
  const lastPart = literal.slice(lastColon + 1);
  let hex = literal;
  if (lastPart.includes(".")) {
    const quad = lastPart.split(".").map(Number);
    const high = (((quad[0] ?? 0) << 8) | (quad[1] ?? 0)).toString(16);
    const low = (((quad[2] ?? 0) << 8) | (quad[3] ?? 0)).toString(16);
    hex = `${literal.slice(0, lastColon + 1)}${high}:${low}`;
  }
  const [head = "", rest] = hex.split("::");
  const headGroups = splitGroups(head);
  const restGroups = rest === undefined ? [] : splitGroups(rest);
  const zeros = new Array<number>(8 - headGroups.length - restGroups.length).fill(0);
  const groups = [...headGroups, ...zeros, ...restGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

function splitGroups(text: string): number[] {
  return text === "" ? [] : text.split(":").map((group) => Number.parseInt(group, 16));
}
