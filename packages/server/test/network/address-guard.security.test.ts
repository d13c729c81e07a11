import { describe, expect, test } from "vitest";
import { classifyAddress, createAddressGuard } from "../../src/network/address-guard.js";
import { parseIpAddress } from "../../src/network/ip-address.js";

const blocked: Array<[address: string, reason: string]> = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.1.2.3", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "cloud metadata"],
  ["169.254.170.2", "cloud metadata"],
  ["169.254.1.1", "link-local"],
  ["100.64.0.1", "shared address space (CGNAT)"],
  ["100.127.255.254", "shared address space (CGNAT)"],
  ["100.100.100.200", "cloud metadata"],
  ["0.0.0.0", "this network"],
  ["0.1.2.3", "this network"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.0.8", "IETF protocol assignments"],
  ["192.0.2.1", "documentation"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.1", "benchmarking"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:7f00:1", "IPv4-mapped loopback"],
  ["::ffff:169.254.169.254", "IPv4-mapped cloud metadata"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:0:10.0.0.1", "IPv4-translated private"],
  ["::127.0.0.1", "IPv4-compatible loopback"],
  ["64:ff9b::7f00:1", "NAT64 loopback"],
  ["64:ff9b::169.254.169.254", "NAT64 cloud metadata"],
  ["64:ff9b:1::1", "NAT64 local-use"],
  ["2002:7f00:1::", "6to4 loopback"],
  ["2002:c0a8:101::1", "6to4 private"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf:ffff::1", "link-local"],
  ["fec0::1", "site-local"],
  ["fd00:ec2::254", "cloud metadata"],
  ["fc00::1", "unique-local"],
  ["fd12:3456::1", "unique-local"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation"],
  ["100::1", "discard-only"],
  ["2001::1", "IETF protocol assignments (Teredo, benchmarking, ORCHID)"],
  ["2001:2::1", "IETF protocol assignments (Teredo, benchmarking, ORCHID)"],
  ["5f00::1", "SRv6 SIDs"],
  ["4000::1", "not global unicast"],
  ["[::1]", "loopback"],
  ["localhost", "not an IP address"],
  ["example.com", "not an IP address"],
];

const allowed = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.32.0.1",
  "172.15.255.255",
  "100.128.0.1",
  "169.255.0.1",
  "192.169.0.1",
  "2606:4700::1",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("classifyAddress", () => {
  test.each(blocked)("refuses %s (%s)", (address, reason) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, reason });
  });

  test.each(allowed)("allows %s", (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });
});

describe("createAddressGuard", () => {
  test("allowPrivateNetworks lifts the guard", () => {
    const guard = createAddressGuard({ allowPrivateNetworks: true });
    expect(guard.verdict("127.0.0.1")).toEqual({ allowed: true });
    expect(guard.verdict("169.254.169.254")).toEqual({ allowed: true });
  });

  test("allowedNetworks opens only the listed networks", () => {
    const guard = createAddressGuard({ allowPrivateNetworks: false, allowedNetworks: ["10.1.2.0/24", "fd12::/64"] });
    expect(guard.verdict("10.1.2.3")).toEqual({ allowed: true });
    expect(guard.verdict("fd12::5")).toEqual({ allowed: true });
    expect(guard.verdict("10.1.3.1")).toEqual({ allowed: false, reason: "private" });
    expect(guard.verdict("fd12:1::5")).toEqual({ allowed: false, reason: "unique-local" });
    expect(guard.verdict("169.254.169.254")).toEqual({ allowed: false, reason: "cloud metadata" });
  });

  test("a malformed allowedNetworks entry is a configuration error", () => {
    expect(() => createAddressGuard({ allowPrivateNetworks: false, allowedNetworks: ["intranet"] })).toThrow(
      /not an IP address/,
    );
    expect(() => createAddressGuard({ allowPrivateNetworks: false, allowedNetworks: ["10.0.0.0/33"] })).toThrow(
      /prefix length/,
    );
  });
});

describe("parseIpAddress", () => {
  test("expands IPv6 forms to the same bytes", () => {
    const mapped = parseIpAddress("::ffff:127.0.0.1");
    expect(mapped?.family).toBe(6);
    expect(Array.from(mapped?.bytes ?? [])).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);
    expect(parseIpAddress("[0:0:0:0:0:ffff:7f00:1]")?.bytes).toEqual(mapped?.bytes);
    expect(Array.from(parseIpAddress("fd00:ec2::254")?.bytes ?? [])).toEqual([
      0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54,
    ]);
  });

  test("is undefined for host names and junk", () => {
    expect(parseIpAddress("example.com")).toBeUndefined();
    expect(parseIpAddress("1.2.3")).toBeUndefined();
    expect(parseIpAddress("::g")).toBeUndefined();
  });
});
