import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { problemsOf } from "../support/config-problems.js";


describe("network settings Fastify or URL parsing would otherwise reject while the service starts", () => {
  it("happy: addresses, CIDR ranges, IPv4 netmasks and proxy-addr's range names are trusted proxies", () => {
    const proxies = "10.0.0.1, 10.0.0.0/8,192.168.0.0/255.255.0.0, ::1, fd00::/8, loopback, linklocal, uniquelocal";
    expect(problemsOf({ FRONTDESK_TRUSTED_PROXIES: proxies })).toEqual([]);
    expect(loadConfig({ FRONTDESK_TRUSTED_PROXIES: proxies }).http.trustedProxies).toHaveLength(8);
  });

  it("error: a trusted proxy that is not an address or range names FRONTDESK_TRUSTED_PROXIES and the entry (it was exit 1 with a stack trace)", () => {
    for (const entry of ["999.1.1.1", "10.0.0.0/99", "fd00::/129", "10.0.0.0/255.0.255.0", "proxy.example.com", "10.0.0.0/8/8", "10.0.0.0/"]) {
      const problems = problemsOf({ FRONTDESK_TRUSTED_PROXIES: `10.0.0.1,${entry}` });
      expect(problems, entry).toHaveLength(1);
      expect(problems[0], entry).toMatch(new RegExp(`^FRONTDESK_TRUSTED_PROXIES: '${entry.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}'`));
    }
  });

  it("error: a host no URL can be made of names FRONTDESK_HOST (it was exit 1 with internal_error 'Invalid URL')", () => {
    expect(problemsOf({ FRONTDESK_HOST: "999.1.1.1" })).toEqual([
      "FRONTDESK_HOST: '999.1.1.1' is not a host name or IP address (it also makes the default FRONTDESK_PUBLIC_URL)",
    ]);
    expect(problemsOf({ FRONTDESK_HOST: "0.0.0.0" })).toEqual([]);
    expect(problemsOf({ FRONTDESK_HOST: "::" })).toEqual([]);
    expect(problemsOf({ FRONTDESK_HOST: "frontdesk.internal" })).toEqual([]);
    expect(problemsOf({ FRONTDESK_HOST: "999.1.1.1", FRONTDESK_PUBLIC_URL: "https://help.acme.com" })).toEqual([]);
  });
});
