import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/** A page of the test website: an HTML body with the boilerplate real sites have around it. */
export function pageWithBoilerplate(title: string, paragraphs: string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Acme Outdoor</title>
<style>body{font-family:sans-serif}</style><script>window.analytics = { track: function () {} };</script></head>
<body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/shop">Shop all tents</a> <a href="/blog">Trail journal</a></nav></header>
<div id="cookie-banner" class="cookie-consent" role="dialog"><p>We use cookies to improve your experience.</p><button>Accept all cookies</button></div>
<main><article><h1>${title}</h1>
${paragraphs.map((paragraph, i) => (i === 2 ? `<h2>Details</h2><p>${paragraph}</p>` : `<p>${paragraph}</p>`)).join("\n")}
</article></main>
<aside class="sidebar"><h3>Related</h3><ul><li><a href="/x">Sleeping bags on sale</a></li></ul></aside>
<footer class="site-footer"><p>© 2026 Acme Outdoor Ltd. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
<script>console.log("tracking pixel")</script>
</body></html>`;
}

const paragraphsAbout = (topic: string, facts: string[]) =>
  facts.map((fact, i) => `${fact} This applies to every ${topic} order placed through our website or app, number ${i + 1} of our ${topic} rules.`);

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A real website on loopback for the crawler: robots.txt, a gzip sitemap behind a sitemap index, and pages that misbehave. */
export class LoopbackSite {
  private server: Server | null = null;
  readonly requests: string[] = [];
  /** Version of /changing; bump it to change the page between two syncs. */
  changingVersion = 1;
  /** Extra routes a test adds. */
  readonly routes = new Map<string, Handler>();
  origin = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** The page paths the gzip sitemap lists (plus one foreign-host URL it also lists). */
  readonly sitemapPaths = ["/docs/shipping", "/docs/returns", "/docs/warranty", "/private/secret", "/slow", "/huge", "/file.pdf", "/redirect-private"];

  private sitemapXml(): string {
    const urls = [...this.sitemapPaths.map((path) => this.url(path)), "https://elsewhere.example.net/page"];
    return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((url) => `<url><loc>${url}</loc><lastmod>2026-11-01</lastmod></url>`).join("\n")}
</urlset>`;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? "/").split("?")[0]!;
    this.requests.push(path);
    const html = (body: string, status = 200) => {
      response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      response.end(body);
    };
    const extra = this.routes.get(path);
    if (extra) return extra(request, response);
    switch (path) {
      case "/robots.txt":
        response.writeHead(200, { "content-type": "text/plain" });
        return void response.end("User-agent: *\nDisallow: /private/\n");
      case "/sitemap_index.xml":
        response.writeHead(200, { "content-type": "application/xml" });
        return void response.end(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${this.url("/sitemaps/pages.xml.gz")}</loc></sitemap></sitemapindex>`);
      case "/sitemaps/pages.xml.gz":
        response.writeHead(200, { "content-type": "application/gzip" });
        return void response.end(gzipSync(this.sitemapXml()));
      case "/docs/shipping":
        return html(pageWithBoilerplate("Shipping", paragraphsAbout("shipping", [
          "Standard delivery takes three to five working days within the country.",
          "Express delivery arrives the next working day when ordered before 2 pm.",
          "International parcels are sent with tracking and usually arrive within ten days.",
        ])));
      case "/docs/returns":
        return html(pageWithBoilerplate("Returns", paragraphsAbout("returns", [
          "You can return unused gear within 60 days for a full refund.",
          "Refunds are paid to the original payment method within five days of receipt.",
          "Return labels are free for members of the Acme Trail Club.",
        ])));
      case "/docs/warranty":
        return html(pageWithBoilerplate("Warranty", paragraphsAbout("warranty", [
          "Every tent carries a lifetime warranty against manufacturing defects.",
          "Zips and poles are repaired free of charge at our workshop in Elmby.",
          "Damage from misuse or fire is not covered by the warranty.",
        ])));
      case "/changing":
        return html(pageWithBoilerplate("Opening hours", paragraphsAbout("store", [
          this.changingVersion === 1 ? "Our flagship store opens at nine in the morning." : "Our flagship store now opens at seven in the morning.",
          "The store closes at six in the evening on weekdays.",
          "On Sundays the store is closed for stocktaking.",
        ])));
      case "/private/secret":
        return html(pageWithBoilerplate("Secret", ["Internal pricing notes that robots.txt forbids."]));
      case "/slow":
        return void setTimeout(() => html(pageWithBoilerplate("Slow", ["This page is far too slow."])), 3000);
      case "/huge":
        response.writeHead(200, { "content-type": "text/html" });
        return void response.end(`<html><body><p>${"x".repeat(6 * 1024 * 1024)}</p></body></html>`);
      case "/file.pdf":
        response.writeHead(200, { "content-type": "application/pdf" });
        return void response.end("%PDF-1.4 not a web page");
      case "/redirect-private":
        response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
        return void response.end();
      default:
        return html("<h1>Not found</h1>", 404);
    }
  }
}
