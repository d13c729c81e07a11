/**
 * The owner of every table the migrations create: the one folder of packages/server/src whose SQL
 * alone writes it (INSERT, UPDATE, DELETE) and reads it (FROM, JOIN, USING), but for the joins
 * table-owners.test.ts lists with their reasons. Every other folder calls the owner's door
 * (ARCHITECTURE.md, "The shape of the code"); table-owners.test.ts keeps it so.
 */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  // tenants/: who uses the service, and with which agents and keys
  workspaces: "tenants",
  workspace_model_providers: "tenants",
  agents: "tenants",
  api_tokens: "tenants",
  operators: "tenants",
  operator_sessions: "tenants",
  operator_password_tokens: "tenants",
  operator_recovery_codes: "tenants",
  workspace_sso: "tenants",
  setup_tokens: "tenants",
  // conversations/: a visitor's conversations and everything said in them, and the quota they count against
  visitors: "conversations",
  conversations: "conversations",
  messages: "conversations",
  operator_reply_keys: "conversations",
  conversation_reads: "conversations",
  conversation_counters: "conversations",
  conversation_labels: "conversations",
  // widget/: what the visitor leaves besides their words
  leads: "widget",
  events: "widget",
  // labels/: a workspace's labels (which conversation carries one is conversations/')
  labels: "labels",
  // inbox/
  inbox_notifications: "inbox",
  // sources/ and ingest/: what the agents know
  sources: "sources",
  source_texts: "sources",
  source_files: "sources",
  documents: "ingest",
  chunks: "ingest",
  knowledge_revisions: "ingest",
  embedding_generations: "ingest",
  wordpress_posts: "wordpress",
  // console/curated/: answers the operators wrote
  curated_answers: "console",
  // answering/: the keys a visitor's messages were sent with
  message_idempotency_keys: "answering",
  // answering/: BM25's lexeme statistics of an agent, kept once computed
  lexeme_statistics: "answering",
  // privacy/
  erasures: "privacy",
  // mail/: the outbox, its attempts, the operators' alert choices, digests, pending checks and the replies received
  mail_messages: "mail",
  mail_attempts: "mail",
  mail_alert_preferences: "mail",
  mail_digest_items: "mail",
  mail_checks: "mail",
  mail_inbound: "mail",
  // push/: operators' devices
  push_subscriptions: "push",
  // webhooks/
  webhook_endpoints: "webhooks",
  webhook_events: "webhooks",
  webhook_deliveries: "webhooks",
  // attachments/: the files sent in conversations (issue 33)
  attachments: "attachments",
  // answer-tests/: an agent's test questions, their runs and results
  answer_tests: "answer-tests",
  answer_test_runs: "answer-tests",
  answer_test_results: "answer-tests",
  // notes/: operators' internal notes in conversations
  conversation_notes: "notes",
  // saved-replies/: the workspace's and each operator's saved replies
  saved_replies: "saved-replies",
};
