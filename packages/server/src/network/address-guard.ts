import { BlockList } from "node:net";
import { formatIpAddress, formatIpv4, parseIpAddress } from "./ip-address.js";
import type { IpAddress } from "./ip-address.js";

/** Whether the crawler may connect to an address, and if not, why. */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

export interface AddressPolicy {
  /** Lifts the guard entirely (tests, intranet deployments). */
  allowPrivateNetworks: boolean;
  /** Exceptions to the guard: CIDRs (`10.1.2.0/24`, `fd12::/64`) or single addresses. */
  allowedNetworks?: readonly string[];
}

export interface AddressGuard {
  verdict(address: string): AddressVerdict;
}

type Range = readonly [network: string, prefix: number];

/** Checked first so the reason names them; all sit inside a wider blocked range too. */
const metadataRanges: readonly Range[] = [
  ["169.254.169.254", 32],
  ["169.254.170.2", 32],
  ["100.100.100.200", 32],
  ["fd00:ec2::254", 128],
];

const ipv4Ranges: ReadonlyArray<readonly [reason: string, ranges: readonly Range[]]> = [
  ["cloud metadata", metadataRanges.slice(0, 3)],
  ["this network", [["0.0.0.0", 8]]],
  ["loopback", [["127.0.0.0", 8]]],
  ["private", [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16]]],
  ["shared address space (CGNAT)", [["100.64.0.0", 10]]],
  ["link-local", [["169.254.0.0", 16]]],
  ["IETF protocol assignments", [["192.0.0.0", 24]]],
  ["documentation", [["192.0.2.0", 24], ["198.51.100.0", 24], ["203.0.113.0", 24]]],
  ["benchmarking", [["198.18.0.0", 15]]],
  ["special purpose", [["192.31.196.0", 24], ["192.52.193.0", 24], ["192.88.99.0", 24], ["192.175.48.0", 24]]],
  ["multicast", [["224.0.0.0", 4]]],
  ["broadcast", [["255.255.255.255", 32]]],
  ["reserved", [["240.0.0.0", 4]]],
];

const ipv6Ranges: ReadonlyArray<readonly [reason: string, ranges: readonly Range[]]> = [
  ["cloud metadata", metadataRanges.slice(3)],
  ["unspecified", [["::", 128]]],
  ["loopback", [["::1", 128]]],
  ["NAT64 local-use", [["64:ff9b:1::", 48]]],
  ["discard-only", [["100::", 64]]],
  ["documentation", [["2001:db8::", 32], ["3fff::", 20]]],
  ["IETF protocol assignments (Teredo, benchmarking, ORCHID)", [["2001::", 23]]],
  ["SRv6 SIDs", [["5f00::", 16]]],
  ["unique-local", [["fc00::", 7]]],
  ["link-local", [["fe80::", 10]]],
  ["site-local", [["fec0::", 10]]],
  ["multicast", [["ff00::", 8]]],
];

/** IPv6 prefixes that carry an IPv4 address; the embedded address is judged instead. */
const embeddingPrefixes: ReadonlyArray<readonly [name: string, range: Range, offset: number]> = [
  ["IPv4-mapped", ["::ffff:0:0", 96], 12],
  ["IPv4-translated", ["::ffff:0:0:0", 96], 12],
  ["NAT64", ["64:ff9b::", 96], 12],
  ["6to4", ["2002::", 16], 2],
  ["IPv4-compatible", ["::", 96], 12],
];

const globalUnicast = blockListOf([["2000::", 3]], "ipv6");
const ipv4Lists = ipv4Ranges.map(([reason, ranges]) => [reason, blockListOf(ranges, "ipv4")] as const);
const ipv6Lists = ipv6Ranges.map(([reason, ranges]) => [reason, blockListOf(ranges, "ipv6")] as const);
const embeddingLists = embeddingPrefixes.map(
  ([name, range, offset]) => [name, blockListOf([range], "ipv6"), offset] as const,
);

/**
 * Judges one IP address for the SSRF guard: loopback, private, link-local, unique-local,
 * multicast, CGNAT, reserved, documentation, benchmarking, broadcast and cloud-metadata
 * addresses are refused, also when embedded in IPv6 (mapped, NAT64, 6to4). Anything that
 * is not an IP literal is refused too.
 */
export function classifyAddress(address: string): AddressVerdict {
  const parsed = parseIpAddress(address);
  if (parsed === undefined) return { allowed: false, reason: "not an IP address" };
  return parsed.family === 4 ? classifyIpv4(formatIpv4(parsed.bytes)) : classifyIpv6(parsed);
}

/** The guard the agent and the fetcher consult, with the deployment's exceptions applied. */
export function createAddressGuard(policy: AddressPolicy): AddressGuard {
  const exceptions = new BlockList();
  for (const network of policy.allowedNetworks ?? []) addException(exceptions, network);
  return {
    verdict(address) {
      if (policy.allowPrivateNetworks) return { allowed: true };
      const parsed = parseIpAddress(address);
      if (parsed !== undefined && exceptions.check(formatIpAddress(parsed), familyName(parsed))) {
        return { allowed: true };
      }
      return classifyAddress(address);
    },
  };
}

function classifyIpv4(text: string): AddressVerdict {
  for (const [reason, list] of ipv4Lists) {
    if (list.check(text, "ipv4")) return { allowed: false, reason };
  }
  return { allowed: true };
}

function classifyIpv6(address: IpAddress): AddressVerdict {
  const text = formatIpAddress(address);
  const [metadata, unspecified, loopback] = ipv6Lists;
  for (const entry of [metadata, unspecified, loopback]) {
    if (entry !== undefined && entry[1].check(text, "ipv6")) return { allowed: false, reason: entry[0] };
  }
  for (const [name, list, offset] of embeddingLists) {
    if (!list.check(text, "ipv6")) continue;
    const embedded = classifyIpv4(formatIpv4(address.bytes.subarray(offset, offset + 4)));
    return embedded.allowed ? embedded : { allowed: false, reason: `${name} ${embedded.reason}` };
  }
  for (const [reason, list] of ipv6Lists) {
    if (list.check(text, "ipv6")) return { allowed: false, reason };
  }
  if (!globalUnicast.check(text, "ipv6")) return { allowed: false, reason: "not global unicast" };
  return { allowed: true };
}

function blockListOf(ranges: readonly Range[], family: "ipv4" | "ipv6"): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

function addException(list: BlockList, network: string): void {
  const [addressText = "", prefixText] = network.split("/");
  const parsed = parseIpAddress(addressText.trim());
  if (parsed === undefined) throw new Error(`allowedNetworks: "${network}" is not an IP address or CIDR`);
  const maxPrefix = parsed.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
    throw new Error(`allowedNetworks: "${network}" has an invalid prefix length`);
  }
  list.addSubnet(formatIpAddress(parsed), prefix, familyName(parsed));
}

function familyName(address: IpAddress): "ipv4" | "ipv6" {
  return address.family === 4 ? "ipv4" : "ipv6";
}
