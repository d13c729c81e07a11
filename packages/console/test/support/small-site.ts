import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small website on loopback: a sitemap listing two pages the crawler reads, and a home page
 * into which a test "pastes" a snippet (what a site owner does with the console's script tag).
 */
export class SmallSite {
  private server: Server | null = null;
  origin = "";
  /** HTML written before </body> of the home page. */
  pasted = "";
  readonly pages: Record<string, { title: string; text: string }> = {
    "/shipping": { title: "Shipping", text: "Orders over 50 euros ship for free within the European Union. Parcels leave our warehouse in two working days." },
    "/returns": { title: "Returns", text: "You may return any bike within 30 days of delivery for a full refund, as long as it has not been ridden outdoors." },
  };

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const path = (request.url ?? "/").split("?")[0]!;
      const html = (body: string) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(body);
      };
      if (path === "/sitemap.xml") {
        response.writeHead(200, { "content-type": "application/xml" });
        return void response.end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Object.keys(this.pages)
            .map((page) => `<url><loc>${this.origin}${page}</loc></url>`)
            .join("\n")}\n</urlset>`,
        );
      }
      const page = this.pages[path];
      if (page) return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page.title} | Acme Bikes</title></head><body><main><h1>${page.title}</h1><p>${page.text}</p></main></body></html>`);
      if (path === "/") return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Bikes</title></head><body><main><h1>Acme Bikes</h1><p>City bikes and tandems.</p></main>\n${this.pasted}\n</body></html>`);
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
