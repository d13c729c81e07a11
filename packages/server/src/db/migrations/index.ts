import { foundation } from "./0001-foundation.js";
import { sources } from "./0002-sources.js";
import { knowledgeRevisions } from "./0003-knowledge-revisions.js";
import { adminListIndexes } from "./0004-admin-list-indexes.js";
import { conversationEventSeq } from "./0005-conversation-event-seq.js";
import type { Migration } from "./migration.js";

/** Every migration, in the order they apply. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [foundation, sources, knowledgeRevisions, adminListIndexes, conversationEventSeq];
