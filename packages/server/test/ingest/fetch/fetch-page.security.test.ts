import { describe, expect } from "vitest";
import type { HostResolver } from "../../../src/network/guarded-agent.js";
import { html, openCrawler, redirect, rejectionOf, siteTest } from "./loopback-site.js";

/** Test names resolve as a hostile DNS would answer; everything else is unknown. */
const hostileDns: HostResolver = async (hostname) => {
  if (hostname === "intranet.test") return [{ address: "10.0.0.5", family: 4 }];
  if (hostname === "metadata.test") return [{ address: "fd00:ec2::254", family: 6 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
};

describe("SSRF guard", () => {
  siteTest("refuses the loopback test site itself when the guard is on", async ({ site }) => {
    site.route("/", html("<p>internal</p>"));
    const error = await rejectionOf(openCrawler({ allowPrivateNetworks: false }).fetchPage(site.url("/")));

    expect(error).toMatchObject({ code: "blocked_address", transient: false });
    expect(site.connections()).toBe(0);
  });

  siteTest("refuses localhost by name, through the system resolver", async ({ site }) => {
    const error = await rejectionOf(
      openCrawler({ allowPrivateNetworks: false }).fetchPage(`http://localhost:${site.port}/`),
    );

    expect(error).toMatchObject({ code: "blocked_address" });
    expect(site.connections()).toBe(0);
  });

  siteTest.for([
    "http://[::1]:{port}/",
    "http://[::ffff:127.0.0.1]:{port}/",
    "http://[::ffff:7f00:1]:{port}/",
    "http://0x7f.1:{port}/",
    "http://2130706433:{port}/",
    "http://0177.0.0.1:{port}/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://100.100.100.200/latest/meta-data/",
    "http://0.0.0.0:{port}/",
  ])("refuses the literal address %s", async (template, { site }) => {
    const url = template.replace("{port}", String(site.port));
    const error = await rejectionOf(openCrawler({ allowPrivateNetworks: false }).fetchPage(url));

    expect(error).toMatchObject({ code: "blocked_address" });
    expect(site.connections()).toBe(0);
  });

  siteTest("checks every redirect hop", async ({ site }) => {
    // 127.0.0.1 is opened for the test so that the site itself is reachable with the guard on.
    site.route("/to-metadata", redirect("http://169.254.169.254/latest/meta-data/"));
    site.route("/to-ipv6-loopback", redirect(`http://[::1]:${site.port}/`));
    site.route("/to-other-loopback", redirect(`http://127.0.0.2:${site.port}/`));
    site.route("/to-intranet-name", redirect(`http://intranet.test:${site.port}/`));
    site.route("/to-metadata-name", redirect("http://metadata.test/"));
    site.route("/fine", html("<p>public</p>"));
    const crawler = openCrawler({ allowPrivateNetworks: false, allowedNetworks: ["127.0.0.1"], resolve: hostileDns });

    expect((await crawler.fetchPage(site.url("/fine"))).body).toBe("<p>public</p>");
    for (const path of ["/to-metadata", "/to-ipv6-loopback", "/to-other-loopback", "/to-intranet-name", "/to-metadata-name"]) {
      expect(await rejectionOf(crawler.fetchPage(site.url(path))), path).toMatchObject({ code: "blocked_address" });
    }
  });

  siteTest("lets a redirect to a private address through when the guard is off", async ({ site }) => {
    site.route("/hop", redirect(`http://127.0.0.1:${site.port}/inside`));
    site.route("/inside", html("<p>inside</p>"));
    const page = await openCrawler({ allowPrivateNetworks: true }).fetchPage(site.url("/hop"));

    expect(page.url).toBe(site.url("/inside"));
  });
});
