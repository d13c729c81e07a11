import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { buildPdf, formData } from "../support/generated-files.js";
import { bearer, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
const MAX_BYTES = 400_000;
const UPLOADS_PER_HOUR = 6;

/** A photo as a phone takes it: a JPEG whose EXIF names the camera's owner and where it was taken (GPS). */
async function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: "#c0392b" } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: "owner-marker-7731", Make: "PhoneMaker" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2406/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 742/100" },
    })
    .toBuffer();
}

describeEachStore("attachments on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      FRONTDESK_ATTACHMENT_MAX_BYTES: String(MAX_BYTES),
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
      FRONTDESK_RATE_LIMIT_ATTACHMENTS_PER_HOUR: String(UPLOADS_PER_HOUR),
    });
    ({ tenant, admin, agentOperator, outsider } = await seedConsoleCast(t));
  }, 120_000);
  afterAll(() => t.close());

  const upload = (session: StartedSession, name: string, bytes: Uint8Array, field = "file") =>
    t.app.inject({ method: "POST", url: `${W}/attachments`, headers: bearer(session.jwt), payload: formData({}, { name, bytes, field }) });
  const uploaded = async (session: StartedSession, name: string, bytes: Uint8Array) => {
    const response = await upload(session, name, bytes);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; url: string; media_type: string; bytes: number; filename: string };
  };
  const send = (session: StartedSession, body: Record<string, unknown>, path = "/messages") =>
    t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(session.jwt), payload: { message: "Here it is", ...body } });
  /** The path and query of an absolute URL the API handed out. */
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };
  const count = async (conversationId: string) =>
    (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM attachments WHERE conversation_id = $1`, [conversationId])).rows[0]!.n;
  const visitorMessages = async (session: StartedSession) =>
    (await t.app.inject({ method: "GET", url: `${W}/conversation/messages`, headers: bearer(session.jwt) })).json().data.messages as {
      role: string;
      content: string;
      attachments?: { id: string; url: string; media_type: string }[];
    }[];

  it("happy: a visitor's photo is stored without its EXIF (GPS, owner), sent with a message, shown to both sides and told live", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes("owner-marker-7731")).toBe(true);

    const photo = await uploaded(session, "IMG_0042.JPG", original);
    expect(photo).toMatchObject({ id: expect.stringMatching(/^att_/), media_type: "image/jpeg", filename: "IMG_0042.jpg" });
    expect(photo.url).toMatch(/\/api\/v1\/widget\/attachments\/att_\w+\/IMG_0042\.jpg\?access=\d+\.[\w-]{43}$/);

    // What an <img> sends: no header, the link's own signature.
    const served = await t.app.inject({ method: "GET", url: pathOf(photo.url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(served.headers["content-disposition"]).toMatch(/^inline; filename="IMG_0042\.jpg"/);
    expect(served.rawPayload.byteLength).toBe(photo.bytes);
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([64, 48]);
    expect(served.rawPayload.includes("owner-marker-7731")).toBe(false);
    expect(served.rawPayload.includes("Exif\0\0")).toBe(false);

    const before = t.published.length;
    const answered = await send(session, { message: "The fly of my tent is torn", attachment_ids: [photo.id] });
    expect(answered.statusCode, answered.body).toBe(200);
    const messages = await visitorMessages(session);
    const mine = messages.find((message) => message.role === "visitor")!;
    expect(mine.attachments).toEqual([expect.objectContaining({ id: photo.id, media_type: "image/jpeg" })]);
    expect((await t.app.inject({ method: "GET", url: pathOf(mine.attachments![0]!.url) })).statusCode).toBe(200);
    // Live, on the conversation's channel the visitor shares with the operators.
    const live = t.published.slice(before).find((event) => event.type === "message.created" && event.message.role === "visitor");
    expect(live?.type === "message.created" && live.message.attachments).toEqual([expect.objectContaining({ id: photo.id })]);

    // The operators read it through the console's route, with their session cookie.
    const detail = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}`, headers: agentOperator.headers });
    const shown = detail.json().data.messages.find((message: { role: string }) => message.role === "visitor");
    expect(shown.attachments[0].url).toMatch(new RegExp(`/api/v1/console/attachments/${photo.id}/IMG_0042\\.jpg$`));
    const opened = await t.app.inject({ method: "GET", url: pathOf(shown.attachments[0].url), headers: { cookie: agentOperator.headers.cookie } });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers["content-type"]).toBe("image/jpeg");
  });

  it("happy: files without a word are stored and shown, and the bot says nothing; the stream route takes them too", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const photo = await uploaded(session, "only.png", await sharp({ create: { width: 8, height: 8, channels: 4, background: "#00ff0080" } }).png().toBuffer());
    const answered = await send(session, { message: "", attachment_ids: [photo.id] });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().data).toMatchObject({ content: "", citations: [] });
    const messages = await visitorMessages(session);
    expect(messages.map((message) => message.role)).toEqual(["visitor"]);
    expect(messages[0]!.attachments?.[0]).toMatchObject({ id: photo.id, media_type: "image/png" });
    // The inbox's preview names the files of a message sent without words, rather than showing nothing.
    const inbox = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations?limit=100`, headers: admin.headers });
    expect(inbox.statusCode, inbox.body).toBe(200);
    const listed = (inbox.json().data as { id: string; last_message: { role: string; excerpt: string } | null }[]).find((item) => item.id === session.conversationId);
    expect(listed?.last_message).toMatchObject({ role: "visitor", excerpt: "📎 only.png" });

    const pdf = await uploaded(session, "receipt.pdf", await buildPdf(["Receipt 42"]));
    const streamed = await send(session, { message: "And my receipt", attachment_ids: [pdf.id] }, "/messages/stream");
    expect(streamed.statusCode, streamed.body).toBe(200);
    const withReceipt = (await visitorMessages(session)).find((message) => message.content === "And my receipt");
    expect(withReceipt?.attachments?.[0]).toMatchObject({ id: pdf.id, media_type: "application/pdf" });
  });

  it("happy: an operator's PDF goes to the visitor with the reply, downloaded (never rendered on the service's origin)", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const pdfBytes = await buildPdf(["Repair guide for the tent's fly"]);
    const up = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/conversations/${session.conversationId}/attachments`,
      headers: agentOperator.headers,
      payload: formData({}, { name: "repair guide.pdf", bytes: pdfBytes }),
    });
    expect(up.statusCode, up.body).toBe(201);
    const pdf = up.json().data;
    expect(pdf).toMatchObject({ media_type: "application/pdf", bytes: pdfBytes.byteLength, filename: "repair guide.pdf" });
    expect(pdf.url).toContain(`/api/v1/console/attachments/${pdf.id}/`);
    // Not the visitor's before it is sent, even with the conversation's session token.
    const early = await t.app.inject({ method: "GET", url: `${W}/attachments/${pdf.id}/x.pdf`, headers: bearer(session.jwt) });
    expect(early.statusCode).toBe(404);

    expect((await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/assign`, headers: agentOperator.headers, payload: {} })).statusCode).toBe(200);
    const reply = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/conversations/${session.conversationId}/messages`,
      headers: agentOperator.headers,
      payload: { content: "Here is the repair guide", attachment_ids: [pdf.id] },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().data.attachments).toEqual([expect.objectContaining({ id: pdf.id })]);

    const received = (await visitorMessages(session)).find((message) => message.role === "operator")!;
    expect(received.attachments?.[0]).toMatchObject({ id: pdf.id, media_type: "application/pdf" });
    const served = await t.app.inject({ method: "GET", url: pathOf(received.attachments![0]!.url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.headers["content-disposition"]).toBe(`attachment; filename="repair guide.pdf"; filename*=UTF-8''repair%20guide.pdf`);
    expect(Buffer.compare(served.rawPayload, Buffer.from(pdfBytes))).toBe(0);
    // The visitor's session token opens it too (an API client's way).
    const withToken = await t.app.inject({ method: "GET", url: new URL(received.attachments![0]!.url).pathname, headers: bearer(session.jwt) });
    expect(withToken.statusCode).toBe(200);
  });

  it("error: an oversized file is 413 file_too_large, a disguised one 415, and neither is stored", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const large = await upload(session, "huge.pdf", Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(MAX_BYTES + 10, 0x20)]));
    expect(large.statusCode).toBe(413);
    expect(large.json().error.code).toBe("file_too_large");

    const html = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
    const disguised = await upload(session, "cute-cat.png", html);
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json().error).toMatchObject({ code: "unsupported_media_type", message: expect.stringContaining("PNG, JPEG, WebP or GIF image, or a PDF") });
    const svg = await upload(session, "logo.svg", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    expect(svg.statusCode).toBe(415);
    // A PNG's signature with nothing decodable behind it.
    const broken = await upload(session, "broken.png", Buffer.from("89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61", "hex"));
    expect(broken.statusCode).toBe(415);
    expect(await count(session.conversationId)).toBe(0);
  });

  it("error: no file part, another part name, an empty file, or JSON instead of a form are refused", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const none = await t.app.inject({ method: "POST", url: `${W}/attachments`, headers: bearer(session.jwt), payload: formData({ note: "no file" }) });
    expect(none.statusCode).toBe(422);
    expect(none.json().error.fields.file).toBeDefined();
    expect((await upload(session, "a.pdf", await buildPdf(["x"]), "upload")).statusCode).toBe(422);
    expect((await upload(session, "empty.png", new Uint8Array())).statusCode).toBe(422);
    const json = await t.app.inject({ method: "POST", url: `${W}/attachments`, headers: bearer(session.jwt), payload: { file: "a.png" } });
    expect(json.statusCode).toBe(422);
    expect(await count(session.conversationId)).toBe(0);
  });

  it("error: an unknown id, another conversation's upload or one sent already is 404 attachment_not_found, and the message is not stored", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const other = await startSession(t.app, tenant.agentId);
    const theirs = await uploaded(other, "theirs.pdf", await buildPdf(["theirs"]));
    const mine = await uploaded(session, "mine.pdf", await buildPdf(["mine"]));

    for (const ids of [["att_doesnotexist000"], [theirs.id], [mine.id, theirs.id]]) {
      const refused = await send(session, { attachment_ids: ids });
      expect(refused.statusCode, JSON.stringify(ids)).toBe(404);
      expect(refused.json().error.code).toBe("attachment_not_found");
      const streamed = await send(session, { attachment_ids: ids }, "/messages/stream");
      expect(streamed.statusCode).toBe(404);
    }
    expect(await visitorMessages(session)).toEqual([]);
    expect((await send(session, { attachment_ids: [mine.id] })).statusCode).toBe(200);
    expect((await send(session, { message: "Again", attachment_ids: [mine.id] })).statusCode).toBe(404);
    // Neither blank text without files nor a malformed id passes validation.
    expect((await send(session, { message: "  " })).statusCode).toBe(422);
    expect((await send(session, { attachment_ids: ["../etc/passwd"] })).statusCode).toBe(422);
    // An operator cannot send a visitor's upload as theirs, nor one of another conversation.
    await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${other.conversationId}/assign`, headers: agentOperator.headers, payload: {} });
    const stolen = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/conversations/${other.conversationId}/messages`,
      headers: agentOperator.headers,
      payload: { content: "Look", attachment_ids: [theirs.id] },
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error.code).toBe("attachment_not_found");
  });

  it("security: the file answers only its visitor and the workspace's operators: another visitor, another workspace's operator, no token, a forged or expired link get 404", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const stranger = await startSession(t.app, tenant.agentId);
    const photo = await uploaded(session, "private.png", await sharp({ create: { width: 4, height: 4, channels: 3, background: "#123456" } }).png().toBuffer());
    const path = new URL(photo.url).pathname;
    const consolePath = `${CONSOLE}/attachments/${photo.id}/private.png`;

    const refusals = [
      await t.app.inject({ method: "GET", url: path }),
      await t.app.inject({ method: "GET", url: path, headers: bearer(stranger.jwt) }),
      await t.app.inject({ method: "GET", url: `${path}?access=${"1".repeat(10)}.${"A".repeat(43)}` }),
      await t.app.inject({ method: "GET", url: `${new URL(photo.url).pathname.replace(photo.id, "att_someoneelse123")}${new URL(photo.url).search}` }),
      await t.app.inject({ method: "GET", url: consolePath, headers: outsider.headers }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.json().error.code).toBe("attachment_not_found");
      expect(refused.body).not.toContain("PNG");
    }
    // The console's route wants a session at all.
    expect((await t.app.inject({ method: "GET", url: consolePath })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: consolePath, headers: { cookie: admin.headers.cookie } })).statusCode).toBe(200);
    // Another workspace's operator cannot upload into the conversation either.
    const intruder = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/conversations/${session.conversationId}/attachments`,
      headers: outsider.headers,
      payload: formData({}, { name: "x.pdf", bytes: await buildPdf(["x"]) }),
    });
    expect(intruder.statusCode).toBe(404);
    // An upload needs the session token, before anything of the body is read.
    const anonymous = await t.app.inject({ method: "POST", url: `${W}/attachments`, payload: formData({}, { name: "x.pdf", bytes: await buildPdf(["x"]) }) });
    expect(anonymous.statusCode).toBe(401);
    expect(await count(session.conversationId)).toBe(1);

    // A link lives an hour.
    const link = pathOf(photo.url);
    expect((await t.app.inject({ method: "GET", url: link })).statusCode).toBe(200);
    t.clock.offsetMs += 3601_000;
    try {
      expect((await t.app.inject({ method: "GET", url: link })).statusCode).toBe(404);
    } finally {
      t.clock.offsetMs -= 3601_000;
    }
  });

  it("security: a conversation's uploads are limited per hour (each is kept in the store): the next is 429 with Retry-After, and nothing of it is read or stored", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const pixel = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } }).png().toBuffer();
    for (let index = 0; index < UPLOADS_PER_HOUR; index += 1) await uploaded(session, `p${index}.png`, pixel);
    const refused = await upload(session, "one-more.png", pixel);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await count(session.conversationId)).toBe(UPLOADS_PER_HOUR);
    // Another conversation has its own budget.
    await uploaded(await startSession(t.app, tenant.agentId), "elsewhere.png", pixel);
  });
});
