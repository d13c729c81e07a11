import { MAX_MESSAGE_LENGTH } from "@frontdesk/contracts";
import { describe, expect, it } from "vitest";
import { isAutomatic, parseRawMail, UnreadableMailError } from "../../src/mail/inbound-mail.js";
import { replyKeyOfAddress, replyKeysInReferences } from "../../src/mail/reply-key.js";
import { replyTextOf } from "../../src/mail/reply-text.js";

describe("the words of a reply by e-mail", () => {
  it("happy: quoted history and signatures of the common mail clients are cut", () => {
    const cases: [string, string][] = [
      ["Yes, Tuesday works.\n\nOn Tue, 3 Nov 2026 at 10:00, Acme <support@acme.test> wrote:\n> When can we call?\n", "Yes, Tuesday works."],
      ["Yes.\n> quoted\n> more\n", "Yes."],
      ["Thanks!\n\n-- \nJane Doe\nACME Ltd\n", "Thanks!"],
      ["Thanks!\n\nSent from my iPhone\n", "Thanks!"],
      ["Ok then.\n\nFrom: Acme Support <support@acme.test>\nSent: Tuesday, November 3, 2026 10:00 AM\nTo: Jane\nSubject: Your conversation\n\nold words\n", "Ok then."],
      ["Ok then.\n\n________________________________\nFrom: Acme Support\nSent: Tuesday\n\nold\n", "Ok then."],
      ["Fine.\n\n-----Original Message-----\nFrom: support@acme.test\n\nold\n", "Fine."],
      ["Bonjour,\nmerci.\n\nLe mar. 3 nov. 2026 à 10:00, Acme <support@acme.test> a écrit :\n> ancien\n", "Bonjour,\nmerci."],
      ["Line one\r\nLine two\r\n\r\n\r\n\r\n\r\nLine three   \r\n", "Line one\nLine two\n\n\nLine three"],
    ];
    for (const [mail, words] of cases) expect(replyTextOf(mail), mail).toBe(words);
  });

  it("security: control characters and lone surrogates are dropped or replaced, HTML stays text, and the length is the widget's", () => {
    expect(replyTextOf("a\u0000b\u0007c\u200bd\ud800e")).toBe("abcd\ufffde");
    expect(replyTextOf("<script>alert(1)</script>")).toBe("<script>alert(1)</script>");
    const long = replyTextOf("word ".repeat(2000));
    expect(long.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(replyTextOf(`${"x".repeat(MAX_MESSAGE_LENGTH - 1)}😀`)).toBe(`${"x".repeat(MAX_MESSAGE_LENGTH - 1)}\ufffd`);
    expect(replyTextOf("On Tue, 3 Nov 2026, Acme wrote:\n> only a quote\n")).toBe("");
  });

  it("happy: reply keys are read from a sub-address and from our Message-IDs only", () => {
    const key = "abcdefghijklmnopqrstuvwx";
    expect(replyKeyOfAddress(`replies+${key}@acme.test`)).toBe(key);
    expect(replyKeyOfAddress(`REPLIES+${key.toUpperCase()}@ACME.TEST`)).toBe(key);
    expect(replyKeyOfAddress("replies+short@acme.test")).toBeNull();
    expect(replyKeysInReferences([`<fd.${key}@acme.test>`, "<other@example.com>", `<fd.${"b".repeat(24)}@acme.test>`])).toEqual(["b".repeat(24), key]);
    expect(replyKeysInReferences([`<x-fd.${key}@acme.test>`])).toEqual([]);
  });

  it("error: something that is not a mail is unreadable; an out-of-office is automatic", async () => {
    await expect(parseRawMail(Buffer.from("just some words\r\n"), "imap")).rejects.toBeInstanceOf(UnreadableMailError);
    await expect(parseRawMail(Buffer.from("X-Nothing: here\r\n\r\nbody\r\n"), "imap")).rejects.toThrow("no From, To or Message-ID header");
    const html = await parseRawMail(
      Buffer.from("From: a@b.test\r\nTo: c@d.test\r\nMessage-ID: <m@b.test>\r\nContent-Type: text/html\r\n\r\n<p>Hello <b>there</b></p><img src=x onerror=alert(1)>\r\n"),
      "imap",
    );
    // mailparser's text of the HTML part: words only, no markup, no script.
    expect(html.text).toContain("Hello there");
    expect(html.text).not.toMatch(/[<>]|onerror|alert/);
    expect(html).toMatchObject({ from: "a@b.test", messageId: "<m@b.test>", inboundKey: "mid:<m@b.test>", automatic: false });
    expect(isAutomatic("auto-replied", undefined)).toBe(true);
    expect(isAutomatic("no", undefined)).toBe(false);
    expect(isAutomatic(undefined, "bulk")).toBe(true);
  });
});
