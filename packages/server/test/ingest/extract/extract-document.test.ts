import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractDocument } from "../../../src/ingest/extract/extract-document.js";
import { isEmptyExtraction } from "../../../src/ingest/extract/extracted-document.js";
import type { ExtractedDocument } from "../../../src/ingest/extract/extracted-document.js";

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const html = (body: string, url = "https://help.example.test/page"): ExtractedDocument =>
  extractDocument({ body, contentType: "text/html", url });

describe("extractDocument on a page with boilerplate", () => {
  const document = html(fixture("article-with-boilerplate.html"), "https://acme.test/help/shipping");

  it("happy: keeps the title, the language and every section under its heading", () => {
    expect(document.title).toBe("Shipping & Returns");
    expect(document.language).toBe("en-US");
    expect(document.sections.map((section) => section.heading)).toEqual([
      null,
      "International delivery",
      "Returns",
      "Faulty items",
    ]);
    expect(document.sections[0]?.text).toMatch(/^We ship every order from our warehouse in Elmby/);
    expect(document.sections[2]?.text).toMatch(/^You can return any unworn item within 30 days/);
    expect(document.sections[3]?.text).toContain("We will repair or replace it free of charge");
  });

  it("happy: separates paragraphs by blank lines, puts list items on their own lines and decodes entities", () => {
    expect(document.text).toContain("collected by the courier.\n\nDelivery to addresses in the United Kingdom is free for orders over £50.");
    expect(document.text).toContain("Orders placed before 2 pm on a working day");
    expect(document.sections[1]?.text).toContain(
      "paid by the recipient.\n\n- Europe: €12 flat rate\n- United States and Canada: $18 flat rate\n- Australia and New Zealand: A$25 flat rate",
    );
    expect(document.text).toContain("\n\nReturns\n\nYou can return");
    expect(document.text).not.toMatch(/[ \t]{2,}|\n{3,}|&[a-z]+;|\u00a0/);
  });

  it("security: lets no navigation, banner, sidebar, footer, form, script or style text through", () => {
    const leaks = [
      "Accept all cookies", "Manage preferences", "personalised advertising", "Skip to content",
      "Shop Collections", "Trail Journal", "Store Locator", "My Account", "Help Centre",
      "Popular Gear", "Alpine Down Jacket", "Subscribe now", "Your e-mail",
      "Privacy Policy", "Careers at Acme", "All rights reserved", "©",
      "dataLayer", "gtag", "font-family", "classList",
    ];
    for (const leak of leaks) expect(document.text, leak).not.toContain(leak);
  });
});

describe("extractDocument fallback to the page text", () => {
  it("happy: keeps every entry of a short FAQ grid that Readability would cut down", () => {
    const document = html(fixture("faq-short.html"));
    expect(document.title).toBe("FAQ – Brightside Dental");
    expect(document.language).toBe("en-GB");
    expect(document.text).toMatch(/^Frequently asked questions\n\nDo you accept new patients\?/);
    expect(document.sections).toEqual([
      { heading: "Do you accept new patients?", text: "Yes, we welcome new NHS and private patients, including children and families." },
      { heading: "What are your opening hours?", text: "Monday to Friday, 8 am to 6 pm, and Saturday mornings." },
      { heading: "Is there parking?", text: "Free parking is available behind the practice, with two disabled bays." },
      { heading: "Do you offer payment plans?", text: "Yes, treatment over £500 can be spread over twelve months at no interest." },
    ]);
    for (const leak of ["Book online", "Contact us", "uses cookies", "Got it", "Registered in England", "_paq"]) {
      expect(document.text, leak).not.toContain(leak);
    }
  });

  it("happy: reads the single <main> landmark when the page has one", () => {
    const document = html(
      `<html><body><div class="promo">Spring sale ends Friday</div><main><h2>Opening hours</h2><p>We are open every day from 9 to 5.</p></main></body></html>`,
    );
    expect(document.text).toBe("Opening hours\n\nWe are open every day from 9 to 5.");
    expect(document.sections).toEqual([{ heading: "Opening hours", text: "We are open every day from 9 to 5." }]);
  });
});

describe("extractDocument text normalisation", () => {
  it("happy: decodes named, numeric and hexadecimal entities and keeps non-ASCII text", () => {
    const document = html(
      `<p>Caf&eacute; &amp; cr&egrave;me br&ucirc;l&eacute;e &mdash; &#8364;5 &#x1F600;</p><p>東京の店舗は午前十時に開店します。</p><p>Здравствуйте, мы работаем ежедневно.</p><p dir="rtl">מרחבא بكم</p>`,
    );
    expect(document.text).toBe(
      "Café & crème brûlée — €5 😀\n\n東京の店舗は午前十時に開店します。\n\nЗдравствуйте, мы работаем ежедневно.\n\nמרחבא بكم",
    );
  });

  it("happy: collapses whitespace, drops invisible characters and keeps <br> as a line break", () => {
    const document = html(
      `<div>  Lots \t of&nbsp;&nbsp;space\n\n   here <span>and</span><b>there</b>  </div><p>Line one<br>Line two<br/>  Line three</p><p>co&shy;operate\u200b now</p>`,
    );
    expect(document.text).toBe("Lots of space here andthere\n\nLine one\nLine two\nLine three\n\ncooperate now");
  });

  it("happy: numbers ordered lists, writes table rows as lines and keeps separate lists apart", () => {
    const document = html(
      `<ol start="3"><li>Sign in</li><li>Open <em>Billing</em></li></ol><ul><li>Visa</li><li>Mastercard<ul><li>Debit</li></ul></li></ul><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic</td><td>$5</td></tr></table><dl><dt>SLA</dt><dd>99.9%</dd></dl>`,
    );
    expect(document.text).toBe(
      "3. Sign in\n4. Open Billing\n\n- Visa\n- Mastercard\n- Debit\n\nPlan | Price\nBasic | $5\n\nSLA\n99.9%",
    );
  });

  it("happy: opens sections at h1–h4 only and drops a heading with nothing under it", () => {
    const document = html(
      `<main><p>Intro text.</p><h2>Plans</h2><h3>Starter</h3><p>For one site.</p><h5>Small print</h5><p>Prices exclude VAT.</p><h4>Team</h4><p>For five sites.</p></main>`,
    );
    expect(document.sections).toEqual([
      { heading: null, text: "Intro text." },
      { heading: "Starter", text: "For one site.\n\nSmall print\n\nPrices exclude VAT." },
      { heading: "Team", text: "For five sites." },
    ]);
    expect(document.text).toContain("Intro text.\n\nPlans\n\nStarter\n\nFor one site.");
  });

  it("happy: handles fragments and pages without <html>/<body> and XHTML", () => {
    expect(html("<p>Just a paragraph &amp; more</p>").text).toBe("Just a paragraph & more");
    expect(html("Bare text &lt;3").text).toBe("Bare text <3");
    const implied = html("<!doctype html><title>Implied</title><p>Para</p>");
    expect(implied).toMatchObject({ title: "Implied", text: "Para" });
    const xhtml = extractDocument({
      body: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xml:lang="nl"><head><title>Over ons</title></head><body><p>Wij zijn een klein team.</p></body></html>`,
      contentType: "application/xhtml+xml",
      url: "https://x.test/over",
    });
    expect(xhtml).toEqual({ title: "Over ons", text: "Wij zijn een klein team.", sections: [{ heading: null, text: "Wij zijn een klein team." }], language: "nl" });
  });
});

describe("extractDocument titles and language", () => {
  it("happy: falls back from og:title to <title> to the first h1 to the caller's title to the URL", () => {
    const body = (head: string, content = "<p>Body text.</p>"): string => `<html><head>${head}</head><body>${content}</body></html>`;
    expect(html(body(`<meta property="og:title" content="From OG">`)).title).toBe("From OG");
    expect(html(body(`<title>  From\n title  </title>`)).title).toBe("From title");
    expect(html(body("", "<h1>From h1</h1><p>Body text.</p>")).title).toBe("From h1");
    expect(extractDocument({ body: body(""), contentType: "text/html", url: "https://x.test/", title: "From caller" }).title).toBe("From caller");
    expect(html(body(""), "https://x.test/help/getting-started.html").title).toBe("getting started");
    expect(html(body(""), "https://x.test/").title).toBe("x.test");
    expect(html(body(`<title>${"long ".repeat(100)}</title>`)).title).toHaveLength(199);
  });

  it("happy: a citation names the page, not the site: the site's name is dropped from either end of the title", () => {
    const page = (title: string, url: string, extra = "", heading = "Something else"): string =>
      html(`<html><head><title>${title}</title>${extra}</head><body><main><h1>${heading}</h1><p>Body text.</p></main></body></html>`, url).title;
    // By the host name, from its first label on; "&" and "and", case and punctuation aside.
    expect(page("Click &amp; Collect | Acme Cycles", "https://www.acmecycles.co.uk/click-and-collect")).toBe("Click & Collect");
    expect(page("1619 bursary fund - GOV.UK", "https://www.gov.uk/1619-bursary-fund")).toBe("1619 bursary fund");
    expect(page("Acme Cycles | Returns", "https://acmecycles.co.uk/returns")).toBe("Returns");
    // By the canonical address, og:site_name or application-name when the page is served elsewhere.
    expect(page("Returns | Acme Cycles", "http://127.0.0.1:8091/returns", `<link rel="canonical" href="https://www.acmecycles.co.uk/returns">`)).toBe("Returns");
    expect(page("FAQ – Brightside Dental", "https://help.example.test/faq", `<meta property="og:site_name" content="Brightside Dental">`)).toBe("FAQ");
    expect(page("Fees :: Acme Clinic", "https://help.example.test/fees", `<meta name="application-name" content="ACME clinic">`)).toBe("Fees");
    // By the page's own heading: the title's first part when the <h1> says the same.
    expect(page("Click &amp; Collect | Help centre | Shop", "http://127.0.0.1:8091/c", "", "Click and collect")).toBe("Click & Collect");
    // As often as a part names the site, keeping what is between.
    expect(page("Returns | Help centre | Acme Cycles", "https://www.acmecycles.co.uk/returns")).toBe("Returns | Help centre");
  });

  it("edge: a title that names only the site, or parts that merely mention it, or a host that names nothing, stays as it is", () => {
    const page = (title: string, url: string): string => html(`<html><head><title>${title}</title></head><body><p>Body text.</p></body></html>`, url).title;
    expect(page("Acme Cycles", "https://www.acmecycles.co.uk/")).toBe("Acme Cycles");
    expect(page("Acme Cycles | acmecycles.co.uk", "https://www.acmecycles.co.uk/")).toBe("Acme Cycles");
    expect(page("Acme Cycles history | About us", "https://www.acmecycles.co.uk/about")).toBe("Acme Cycles history | About us");
    expect(page("E-bike rules - in brief", "https://www.acmecycles.co.uk/rules")).toBe("E-bike rules - in brief");
    expect(page("Returns | 127", "http://127.0.0.1/returns")).toBe("Returns | 127");
    expect(page("Returns | localhost", "http://localhost/returns")).toBe("Returns | localhost");
  });

  it("happy: reads the language from og:locale when <html lang> is missing or invalid", () => {
    expect(html(`<html lang="not a tag!"><head><meta property="og:locale" content="fr_CA"></head><body><p>Bonjour</p></body></html>`).language).toBe("fr-CA");
    expect(html(`<html><body><p>No language</p></body></html>`)).not.toHaveProperty("language");
  });
});

describe("extractDocument edge cases", () => {
  it("error: empty, whitespace-only and boilerplate-only HTML give an empty extraction", () => {
    for (const body of ["", "   \n\t ", "<html><head><title>Nothing</title></head><body>  </body></html>",
      `<html><body><script>track()</script><nav><a href="/">Home</a></nav><div class="cookie-banner" role="dialog">We use cookies</div><footer>© 2025</footer></body></html>`]) {
      const document = html(body);
      expect(document.text, JSON.stringify(body)).toBe("");
      expect(document.sections).toEqual([]);
      expect(isEmptyExtraction(document)).toBe(true);
    }
    expect(isEmptyExtraction(html("<p>x</p>"))).toBe(false);
  });

  it("security: keeps pages whose content wrapper looks like boilerplate (cookie policy, ASP.NET form)", () => {
    const policy = html(
      `<html><body><div id="cookie-consent" role="dialog">Accept all cookies</div><div class="cookie-policy"><h1>Cookie policy</h1><p>We set two cookies: one for your session and one for your language.</p></div></body></html>`,
    );
    expect(policy.text).toBe("Cookie policy\n\nWe set two cookies: one for your session and one for your language.");
    const webForms = html(`<html><body><form id="aspnetForm" action="/default.aspx"><h1>Our clinic</h1><p>Open since 1998.</p><input type="hidden" value="x"></form></body></html>`);
    expect(webForms.text).toBe("Our clinic\n\nOpen since 1998.");
    const paragraphs = Array.from({ length: 30 }, (_, index) => `<p>Paragraph ${index} of the page explains one more thing about our services.</p>`);
    const wrapped = html(`<html><body><div class="wrapper cookies-accepted"><h2>About us</h2>${paragraphs.join("")}</div></body></html>`);
    expect(wrapped.text).toMatch(/^About us\n\nParagraph 0 of the page .*Paragraph 29 of the page/s);
  });

  it("happy: keeps an article's own header but drops the site header", () => {
    const document = html(
      `<html><body><header><p>Acme Inc tagline</p></header><article><header><h2>Release notes</h2></header><p>Version 2 adds exports.</p></article></body></html>`,
    );
    expect(document.text).toBe("Release notes\n\nVersion 2 adds exports.");
  });
});

describe("extractDocument on plain text", () => {
  const plain = (body: string, title?: string): ExtractedDocument =>
    extractDocument({ body, contentType: "text/plain", url: "https://x.test/notes.txt", ...(title === undefined ? {} : { title }) });

  it("happy: keeps the text as written with normalised line endings; the title is the first non-empty line", () => {
    const document = plain("\r\n\r\n  Opening hours\r\nMon  to Fri\r\rClosed on  holidays\n\n");
    expect(document).toEqual({
      title: "Opening hours",
      text: "  Opening hours\nMon  to Fri\n\nClosed on  holidays",
      sections: [{ heading: null, text: "  Opening hours\nMon  to Fri\n\nClosed on  holidays" }],
    });
  });

  it("happy: prefers the caller's title and cuts long first lines to 200 characters", () => {
    expect(plain("First line\nmore", "Given title").title).toBe("Given title");
    expect(plain(`${"é".repeat(300)}\nmore`).title).toBe("é".repeat(200));
  });

  it("error: whitespace-only text is an empty extraction", () => {
    const document = plain(" \r\n\t\n");
    expect(document.text).toBe("");
    expect(document.sections).toEqual([]);
    expect(document.title).toBe("notes");
    expect(isEmptyExtraction(document)).toBe(true);
  });
});
