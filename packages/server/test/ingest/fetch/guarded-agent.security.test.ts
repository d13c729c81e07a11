import type { LookupAddress } from "node:dns";
import { describe, expect, test } from "vitest";
import { createAddressGuard } from "../../../src/network/address-guard.js";
import { FetchError } from "../../../src/network/fetch-error.js";
import { createGuardedLookup } from "../../../src/network/guarded-agent.js";
import type { HostResolver, ResolvedAddress } from "../../../src/network/guarded-agent.js";
import { html, openCrawler, rejectionOf, send, siteTest } from "./loopback-site.js";

interface LookupOutcome {
  error: Error | null;
  address: string | LookupAddress[];
  family: number | undefined;
}

function lookupWith(resolver: HostResolver, options: { all?: boolean; family?: number }): Promise<LookupOutcome> {
  const lookup = createGuardedLookup(createAddressGuard({ allowPrivateNetworks: false }), resolver);
  return new Promise((resolve) => {
    lookup("site.test", options, (error, address, family) => resolve({ error, address, family }));
  });
}

const fixed =
  (addresses: ResolvedAddress[]): HostResolver =>
  async () =>
    addresses;

describe("guarded lookup", () => {
  test("refuses a host when any of its records is blocked", async () => {
    const outcome = await lookupWith(
      fixed([
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.1", family: 4 },
      ]),
      { all: true },
    );
    expect(outcome.error).toBeInstanceOf(FetchError);
    expect(outcome.error).toMatchObject({ code: "blocked_address" });
    expect(outcome.error?.message).toContain("10.0.0.1");
  });

  test("hands back exactly the records it checked", async () => {
    const records: ResolvedAddress[] = [
      { address: "93.184.216.34", family: 4 },
      { address: "2606:4700::1", family: 6 },
    ];
    expect(await lookupWith(fixed(records), { all: true })).toEqual({ error: null, address: records, family: undefined });
    expect(await lookupWith(fixed(records), {})).toEqual({ error: null, address: "93.184.216.34", family: 4 });
    expect(await lookupWith(fixed(records), { family: 6 })).toEqual({ error: null, address: "2606:4700::1", family: 6 });
  });

  test("passes resolver failures on", async () => {
    const outcome = await lookupWith(async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND site.test"), { code: "ENOTFOUND" });
    }, {});
    expect(outcome.error?.message).toContain("ENOTFOUND");
  });
});

describe("DNS rebinding", () => {
  siteTest("each connection resolves once and connects to the address it checked", async ({ site }) => {
    site.route("/page", html("<p>checked</p>"));
    let lookups = 0;
    // rebind.test does not exist in real DNS: reaching the site proves the checked answer was used.
    const resolve: HostResolver = async () => {
      lookups += 1;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const crawler = openCrawler({ allowPrivateNetworks: false, allowedNetworks: ["127.0.0.1/32"], resolve });

    const page = await crawler.fetchPage(`http://rebind.test:${site.port}/page`);

    expect(page.body).toBe("<p>checked</p>");
    expect(site.requests.map((request) => request.host)).toEqual([`rebind.test:${site.port}`, `rebind.test:${site.port}`]);
    expect(lookups).toBeGreaterThan(0);
    expect(lookups).toBe(site.connections());
  });

  siteTest("a host that rebinds to a blocked address is refused on its next connection", async ({ site }) => {
    const closing = (body: string) => send(200, body, { "content-type": "text/html", connection: "close" });
    site.route("/robots.txt", send(404, "", { connection: "close" }));
    site.route("/one", closing("<p>one</p>"));
    site.route("/two", closing("<p>two</p>"));
    let answer = "127.0.0.1";
    const crawler = openCrawler({
      allowPrivateNetworks: false,
      allowedNetworks: ["127.0.0.1/32"],
      resolve: async () => [{ address: answer, family: 4 }],
    });

    await crawler.fetchPage(`http://rebind.test:${site.port}/one`);
    answer = "10.0.0.1";
    const error = await rejectionOf(crawler.fetchPage(`http://rebind.test:${site.port}/two`));

    expect(error).toMatchObject({ code: "blocked_address" });
    expect(site.hits("/one")).toBe(1);
    expect(site.hits("/two")).toBe(0);
  });

  siteTest("a host name that resolves to a blocked address never reaches the network", async ({ site }) => {
    site.route("/page", html("<p>secret</p>"));
    const crawler = openCrawler({
      allowPrivateNetworks: false,
      allowedNetworks: ["127.0.0.2/32"],
      resolve: fixed([{ address: "127.0.0.1", family: 4 }]),
    });

    const error = await rejectionOf(crawler.fetchPage(`http://rebind.test:${site.port}/page`));

    expect(error).toMatchObject({ code: "blocked_address", transient: false });
    expect(site.connections()).toBe(0);
  });
});
