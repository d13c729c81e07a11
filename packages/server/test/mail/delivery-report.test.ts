import { describe, expect, it } from "vitest";
import { bounceAnswerOf, readDeliveryReport } from "../../src/mail/delivery-report.js";
import { parseRawMail } from "../../src/mail/inbound-mail.js";

const KEY = "k".repeat(12) + "0123456789ab";

describe("a delivery status notification (RFC 3464)", () => {
  it("happy: the first failed recipient gives the status and a one-line diagnostic; the returned Message-ID comes before In-Reply-To", () => {
    const report = readDeliveryReport(
      "Reporting-MTA: dns; mx.test\r\n\r\nFinal-Recipient: rfc822; a@b.test\r\nAction: delayed\r\nStatus: 4.4.7\r\n\r\nFinal-Recipient: rfc822; c@d.test\r\nAction: failed\r\nStatus: 5.1.1 (unknown)\r\nDiagnostic-Code: smtp; 550 no such\r\n\tuser here\r\n",
      `From: support@acme.test\r\nReferences: <fd.${"z".repeat(24)}@acme.test>\r\nMessage-ID: <fd.${KEY}@acme.test>\r\n`,
      [`<fd.${"y".repeat(24)}@acme.test>`],
    );
    expect(report).toEqual({ failed: true, status: "5.1.1", diagnostic: "smtp; 550 no such user here", replyKeys: [KEY, "z".repeat(24), "y".repeat(24)] });
    expect(bounceAnswerOf(report)).toBe("bounced: 5.1.1 (smtp; 550 no such user here)");
  });

  it("security: a diagnostic is plain text on one line, at most 300 characters; a status that is not one is left out", () => {
    const report = readDeliveryReport(`Action: failed\r\nStatus: <script>\r\nDiagnostic-Code: smtp; 550 \u0007bad\u202e ${"x".repeat(400)}\r\n`, "", []);
    expect(report.status).toBeNull();
    expect(report.diagnostic).toHaveLength(300);
    expect(report.diagnostic).toMatch(/^smtp; 550 bad x+$/);
    expect(bounceAnswerOf({ ...report, diagnostic: null })).toBe("bounced: no status");
  });

  it("happy: only a multipart/report of report-type delivery-status is read as one", async () => {
    const plain = Buffer.from(`From: a@b.test\r\nTo: c@d.test\r\nMessage-ID: <x@b.test>\r\n\r\nAction: failed\r\nMessage-ID: <fd.${KEY}@acme.test>\r\n`);
    expect((await parseRawMail(plain, "imap")).deliveryReport).toBeNull();
    const other = Buffer.from(
      `From: a@b.test\r\nTo: c@d.test\r\nMessage-ID: <y@b.test>\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nread\r\n--B--\r\n`,
    );
    expect((await parseRawMail(other, "imap")).deliveryReport).toBeNull();
  });
});
