import { isIP, isIPv4 } from "node:net";

/** The names Fastify's trustProxy (proxy-addr) takes for whole ranges. */
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * Why one entry of FRONTDESK_TRUSTED_PROXIES cannot be a proxy address, or null when it can: an
 * IP address, an address with a prefix length (`10.0.0.0/8`, `fd00::/8`) or an IPv4 netmask
 * (`10.0.0.0/255.0.0.0`), or one of proxy-addr's range names. Checked when the configuration is
 * read, since Fastify would otherwise throw while the service starts.
 */
export function trustedProxyProblem(entry: string): string | null {
  if (RANGE_NAMES.has(entry)) return null;
  const [address = "", range, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return `'${entry}' is not an IP address or CIDR range`;
  if (range === undefined) return null;
  const bits = /^\d{1,3}$/.test(range) ? Number(range) : Number.NaN;
  if (bits <= (family === 4 ? 32 : 128)) return null;
  if (family === 4 && isIPv4(range) && isContiguousNetmask(range)) return null;
  return `'${entry}' has an invalid range (a prefix length up to ${family === 4 ? 32 : 128}${family === 4 ? ", or a netmask" : ""})`;
}

/** `255.255.0.0` is a netmask, `255.0.255.0` is not (its ones are not all on the left). */
function isContiguousNetmask(mask: string): boolean {
  const value = mask.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const hostBits = 0xffffffff - value;
  return (hostBits & (hostBits + 1)) === 0;
}

/** FRONTDESK_TRUSTED_PROXIES as a list (empty: no proxy is believed). */
export function trustedProxiesOf(env: { TRUSTED_PROXIES: string }): string[] {
  return env.TRUSTED_PROXIES.split(",").map((entry) => entry.trim()).filter(Boolean);
}
