import { foundation } from "./0001-foundation.js";
import { sources } from "./0002-sources.js";
import { knowledgeRevisions } from "./0003-knowledge-revisions.js";
import { adminListIndexes } from "./0004-admin-list-indexes.js";
import { conversationEventSeq } from "./0005-conversation-event-seq.js";
import { operatorAccounts } from "./0006-operator-accounts.js";
import { conversationStates } from "./0007-conversation-states.js";
import { consoleInbox } from "./0008-console-inbox.js";
import { visitorPageContext } from "./0009-visitor-page-context.js";
import { firstRunSetup } from "./0010-first-run-setup.js";
import { consoleReports } from "./0011-console-reports.js";
import { messageCatchUpIndex } from "./0012-message-catch-up-index.js";
import { curatedAnswers } from "./0013-curated-answers.js";
import { curatedQuestionStems } from "./0014-curated-question-stems.js";
import { visitorErasure } from "./0015-visitor-erasure.js";
import { systemMessageCodes } from "./0016-system-message-codes.js";
import { wordpressPosts } from "./0018-wordpress-posts.js";
import { webhooks } from "./0019-webhooks.js";
import { sourceSchedules } from "./0020-source-schedules.js";
import { conversationCounterGrants } from "./0021-conversation-counter-grants.js";
import { vectorIndexThreshold } from "./0022-vector-index-threshold.js";
import { pendingDocuments } from "./0023-pending-documents.js";
import { webhookEvents } from "./0024-webhook-events.js";
import { invitedOperatorEmails } from "./0025-invited-operator-emails.js";
import { messageIdempotencyKeys } from "./0030-message-idempotency-keys.js";
import type { Migration } from "./migration.js";

/** Every migration, in the order they apply. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [foundation, sources, knowledgeRevisions, adminListIndexes, conversationEventSeq, operatorAccounts, conversationStates, consoleInbox, visitorPageContext, firstRunSetup, consoleReports, messageCatchUpIndex, curatedAnswers, curatedQuestionStems, visitorErasure, systemMessageCodes, wordpressPosts, webhooks, sourceSchedules, conversationCounterGrants, vectorIndexThreshold, pendingDocuments, webhookEvents, invitedOperatorEmails, messageIdempotencyKeys];
