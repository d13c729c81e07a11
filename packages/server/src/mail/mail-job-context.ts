import type { ResumeTokens } from "../auth/resume-token.js";
import type { MailConfig } from "../config/mail.js";
import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";

/** What the mail domain's jobs (alerts, unseen messages, digests) work with. */
export interface MailJobContext {
  db: Database;
  jobs: JobQueue;
  settings: MailConfig;
  /** FRONTDESK_PUBLIC_URL: the console's links. */
  publicUrl: string;
  resumeTokens: ResumeTokens;
  /** Whether any operator of the workspace is connected to the console now. */
  operatorsOnline: (workspaceId: string) => Promise<boolean>;
  now: () => Date;
}

/** The console's page of a conversation. */
export const consoleConversationUrl = (publicUrl: string, conversationId: string) => `${publicUrl}/console/inbox/${encodeURIComponent(conversationId)}`;
