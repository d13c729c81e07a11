import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { importJWK, jwtVerify } from "jose";

/** A browser's side of a subscription, made here: its P-256 key pair and auth secret. */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
}

/** One request a push service received, checked and decrypted as a browser's push service would. */
export interface ReceivedPush {
  path: string;
  headers: IncomingMessage["headers"];
  /** The VAPID JWT's claims, verified (ES256 under `k`, `aud` this service's origin). */
  claims: { aud: string; exp: number; sub: string };
  vapidPublicKey: string;
  /** The decrypted JSON. */
  alert: Record<string, unknown>;
}

/**
 * A push service on 127.0.0.1: answers each path as told (201 by default), and for every request
 * verifies the VAPID JWT (ES256, aud = its origin, exp within 24 hours) and decrypts the aes128gcm
 * body (RFC 8188, RFC 8291) with the subscription's private key, here with node:crypto alone, not
 * the library that encrypted it. A request it cannot verify or decrypt is answered 400 and recorded
 * in `rejected`.
 */
export class LoopbackPushService {
  readonly received: ReceivedPush[] = [];
  readonly rejected: { path: string; reason: string }[] = [];
  private readonly subscriptions = new Map<string, BrowserSubscription>();
  private readonly answers = new Map<string, number[]>();
  private server: Server | null = null;
  origin = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        this.check(path, request.headers, Buffer.concat(chunks)).then(
          (push) => {
            this.received.push(push);
            const queue = this.answers.get(path) ?? [];
            response.statusCode = queue.length > 1 ? queue.shift()! : (queue[0] ?? 201);
            response.end();
          },
          (error: unknown) => {
            this.rejected.push({ path, reason: error instanceof Error ? error.message : String(error) });
            response.statusCode = 400;
            response.end();
          },
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A new browser subscription at `path`, answered with `statuses` in turn (the last one repeats). */
  subscribe(path: string, statuses: number[] = [201]): BrowserSubscription {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const subscription = {
      endpoint: `${this.origin}${path}`,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
      ecdh,
    };
    this.subscriptions.set(path, subscription);
    this.answers.set(path, [...statuses]);
    return subscription;
  }

  at(path: string): ReceivedPush[] {
    return this.received.filter((push) => push.path === path);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async check(path: string, headers: IncomingMessage["headers"], body: Buffer): Promise<ReceivedPush> {
    const subscription = this.subscriptions.get(path);
    if (!subscription) throw new Error("no such subscription");
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(headers.authorization ?? ""));
    if (!match) throw new Error("no VAPID authorization");
    const [, token, vapidPublicKey] = match as unknown as [string, string, string];
    const raw = Buffer.from(vapidPublicKey, "base64url");
    if (raw.length !== 65 || raw[0] !== 4) throw new Error("k is not an uncompressed P-256 key");
    const key = await importJWK({ kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") }, "ES256");
    const { payload } = await jwtVerify(token, key, { algorithms: ["ES256"], audience: this.origin });
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== "number" || payload.exp <= now || payload.exp > now + 24 * 60 * 60) throw new Error("exp is not within 24 hours");
    if (typeof payload.sub !== "string") throw new Error("no sub");
    if (headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
    const alert = JSON.parse(decryptAes128gcm(body, subscription).toString("utf8")) as Record<string, unknown>;
    return { path, headers, claims: { aud: String(payload.aud), exp: payload.exp, sub: payload.sub }, vapidPublicKey, alert };
  }
}

/** RFC 8291's decryption of a one-record aes128gcm body by the subscription's private key and auth secret. */
function decryptAes128gcm(body: Buffer, subscription: BrowserSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const receiverPublicKey = subscription.ecdh.getPublicKey();
  const shared = subscription.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0", "ascii"), receiverPublicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, Buffer.from(subscription.keys.auth, "base64url"), keyInfo, 32));
  const contentKey = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0", "ascii"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0", "ascii"), 12));
  const decipher = createDecipheriv("aes-128-gcm", contentKey, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error("the last record's delimiter is missing");
  return padded.subarray(0, end);
}
