import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/** One mail as the receiver got it: the envelope, whether the session was TLS and authenticated, and the parsed message. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  secure: boolean;
  user: string | null;
  raw: string;
  parsed: ParsedMail;
}

/**
 * A real SMTP server on loopback (smtp-server, nodemailer's own), which parses every mail it accepts
 * with mailparser. `refuse` makes it answer 550 to a recipient; `auth` requires AUTH (only after
 * STARTTLS when `tls` is given).
 */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  constructor(private readonly options: { auth?: { user: string; pass: string }; tls?: { key: string; cert: string }; refuse?: (address: string) => boolean } = {}) {}

  async start(): Promise<void> {
    const { auth, tls, refuse } = this.options;
    const options: SMTPServerOptions = {
      secure: false,
      disabledCommands: [...(auth ? [] : ["AUTH"]), ...(tls ? [] : ["STARTTLS"])],
      ...(tls ? { key: tls.key, cert: tls.cert } : {}),
      authOptional: !auth,
      allowInsecureAuth: false,
      logger: false,
      onAuth: (credentials, _session, callback) => {
        if (auth && credentials.username === auth.user && credentials.password === auth.pass) callback(null, { user: credentials.username });
        else callback(new Error("Invalid username or password"));
      },
      onRcptTo: (address, _session, callback) => {
        if (refuse?.(address.address)) {
          const error = new Error("mailbox unavailable") as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          simpleParser(raw).then(
            (parsed) => {
              this.mails.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                  to: session.envelope.rcptTo.map((recipient) => recipient.address),
                },
                secure: session.secure,
                user: typeof session.user === "string" ? session.user : null,
                raw,
                parsed,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    };
    this.server = new SMTPServer(options);
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    const address = this.server.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  /** Resolves with the first mail to `address` (waits for it, up to `timeoutMs`). */
  async mailTo(address: string, timeoutMs = 20_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.mails.find((received) => received.envelope.to.includes(address));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms (got ${this.mails.map((m) => m.envelope.to.join(",")).join("; ")})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * A TCP port whose first `hang` connections are accepted and then left silent (no greeting: the
 * client's timeout must end the attempt); later ones are piped to `target`'s port.
 */
export class HangingThenForwarding {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  connections = 0;
  port = 0;

  constructor(private readonly target: () => number, private readonly hang: number) {}

  async start(): Promise<void> {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => undefined);
      this.connections += 1;
      if (this.connections <= this.hang) return;
      const forward = connect(this.target(), "127.0.0.1");
      forward.on("error", () => socket.destroy());
      socket.pipe(forward).pipe(socket);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    const address = this.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A self-signed certificate for 127.0.0.1, made by openssl for this test run: its key, its certificate and the file the client trusts. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string; certFile: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "frontdesk-smtp-tls-"));
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  await promisify(execFile)("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
  ]);
  return { key: await readFile(keyFile, "utf8"), cert: await readFile(certFile, "utf8"), certFile, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
