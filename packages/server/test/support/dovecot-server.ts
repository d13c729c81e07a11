import { spawn, type ChildProcess } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { userInfo, tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { ImapFlow } from "imapflow";
import { DEBIAN_DOVECOT } from "../../../../scripts/test-legs/dovecot-leg.mjs";
import { freePort } from "./realtime-clients.js";

/** The IMAP user of the test server, and their password. */
export const IMAP_USER = "replies";
export const IMAP_PASSWORD = "imap-test-password-1";

/** The uid and gid mail is kept under: the `dovecot` user when the tests run as root (Dovecot serves no mail as root), else the tests' own. */
function mailOwner(): { uid: number; gid: number } {
  if (process.getuid?.() !== 0) return { uid: userInfo().uid, gid: userInfo().gid };
  const uid = Number(execFileSync("id", ["-u", "dovecot"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "dovecot"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/**
 * A real Dovecot IMAP server on a loopback port (the `dovecot` leg): its own configuration, a
 * passwd-file user and a Maildir in a temporary directory, started in the foreground
 * (`dovecot -F -c <conf>`) and stopped by its pid. On 127.0.0.1 only: plain IMAP, or with a
 * certificate, STARTTLS required before any login.
 */
export class DovecotServer {
  private child: ChildProcess | null = null;
  private directory = "";
  port = 0;

  /** With `tls`, STARTTLS is offered with this certificate and a login before it is refused. */
  constructor(private readonly tls: { key: string; cert: string } | null = null) {}

  get url(): string {
    return `imap://${IMAP_USER}:${encodeURIComponent(IMAP_PASSWORD)}@127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.directory = await mkdtemp(join(tmpdir(), "frontdesk-dovecot-"));
    this.port = await freePort();
    const dir = this.directory;
    // Dovecot's auth process (the `dovecot` user under root) reads the passwd file: the directory must let it in.
    await chmod(dir, 0o755);
    const owner = mailOwner();
    const self = userInfo().username;
    await mkdir(join(dir, "run"));
    await mkdir(join(dir, "state"));
    await mkdir(join(dir, "mail"));
    await chown(join(dir, "mail"), owner.uid, owner.gid);
    await writeFile(join(dir, "passwd"), `${IMAP_USER}:{PLAIN}${IMAP_PASSWORD}::::::\n`);
    const root = process.getuid?.() === 0;
    if (this.tls) {
      await writeFile(join(dir, "key.pem"), this.tls.key, { mode: 0o600 });
      await writeFile(join(dir, "cert.pem"), this.tls.cert);
    }
    const tlsSettings = this.tls
      ? ["ssl = required", `ssl_cert = <${dir}/cert.pem`, `ssl_key = <${dir}/key.pem`, "disable_plaintext_auth = yes"]
      : ["ssl = no", "disable_plaintext_auth = no"];
    await writeFile(
      join(dir, "dovecot.conf"),
      [
        "protocols = imap",
        "listen = 127.0.0.1",
        `base_dir = ${dir}/run`,
        `state_dir = ${dir}/state`,
        `log_path = ${dir}/dovecot.log`,
        ...tlsSettings,
        "auth_mechanisms = plain login",
        `mail_location = maildir:${dir}/mail/%u`,
        "first_valid_uid = 1",
        ...(root ? [] : [`default_internal_user = ${self}`, `default_login_user = ${self}`]),
        "passdb {",
        "  driver = passwd-file",
        `  args = scheme=PLAIN username_format=%u ${dir}/passwd`,
        "}",
        "userdb {",
        "  driver = static",
        `  args = uid=${owner.uid} gid=${owner.gid} home=${dir}/mail/%u`,
        "}",
        "service imap-login {",
        "  inet_listener imap {",
        "    address = 127.0.0.1",
        `    port = ${this.port}`,
        "  }",
        "  inet_listener imaps {",
        "    port = 0",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    const binary = process.env.FRONTDESK_TEST_DOVECOT_PATH || DEBIAN_DOVECOT;
    this.child = spawn(binary, ["-F", "-c", join(dir, "dovecot.conf")], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    this.child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    this.child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await this.withClient(async () => undefined);
        return;
      } catch (error) {
        if (Date.now() > deadline || this.child.exitCode !== null) {
          const log = await readFile(join(dir, "dovecot.log"), "utf8").catch(() => "");
          throw new Error(`dovecot did not start: ${String(error)}\n${output}\n${log}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
  }

  /** Runs `work` with a client logged in as the test user. */
  async withClient<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port: this.port,
      secure: false,
      auth: { user: IMAP_USER, pass: IMAP_PASSWORD },
      logger: false,
      disableAutoIdle: true,
      ...(this.tls ? { tls: { ca: this.tls.cert } } : {}),
    });
    client.on("error", () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  /** Delivers a raw mail into INBOX (IMAP APPEND), unseen. */
  async deliver(raw: string | Buffer): Promise<void> {
    await this.withClient((client) => client.append("INBOX", raw, []));
  }

  /** Every mail of INBOX with its flags. */
  async inbox(): Promise<{ uid: number; flags: string[]; subject: string }[]> {
    return this.withClient(async (client) => {
      const lock = await client.getMailboxLock("INBOX");
      try {
        const mails: { uid: number; flags: string[]; subject: string }[] = [];
        for await (const message of client.fetch("1:*", { uid: true, flags: true, envelope: true })) {
          mails.push({ uid: message.uid, flags: [...(message.flags ?? [])].sort(), subject: message.envelope?.subject ?? "" });
        }
        return mails;
      } catch {
        return [];
      } finally {
        lock.release();
      }
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    if (this.directory) await rm(this.directory, { recursive: true, force: true });
  }
}
