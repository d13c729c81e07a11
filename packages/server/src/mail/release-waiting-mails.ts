import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { releaseWaitingMails } from "./mail-repository.js";

/**
 * The outbox goes out: when a worker starts with SMTP configured, every mail that waited for it
 * becomes `queued` and gets its `send-mail` job, in one transaction (two workers starting together:
 * the second finds none left). Returns how many.
 */
export async function releaseWaitingMail(db: Database, jobs: JobQueue): Promise<number> {
  return db.transaction(async (tx) => {
    const released = await releaseWaitingMails(tx);
    if (released.length > 0) await jobs.sendMany("send-mail", released.map(({ id, workspaceId }) => ({ mailId: id, workspaceId, attempt: 1 })), tx);
    return released.length;
  });
}
