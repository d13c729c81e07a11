import type { Migration } from "./migration.js";

/**
 * Labels and the visitor's profile (issue 33, parts 3 and 5).
 *
 * `labels` (labels/): a workspace's names and colours, a name unique per workspace whatever its
 * case (`labels_workspace_name_idx`, which also lists them). `conversation_labels`
 * (conversations/): which conversation carries which label; a row goes with its conversation
 * (erasure, retention: the conversation's key, then the cascade) and with its label (deleting a
 * label takes it off every conversation: the cascade, by `conversation_labels_label_idx`). The
 * inbox's filter reads `conversation_labels_label_idx`; the labels of a page of conversations and
 * the labels' counts read the primary key and `conversation_labels_workspace_idx`.
 *
 * The visitor's profile: `conversations.visited_pages`, the pages the visitor wrote from after the
 * first (url, title, when; at most 20, appended where `last_page_url` already changes);
 * `time_zone` (the IANA zone the widget reports at init) and `language` (the browser's first
 * language, from the init's `Accept-Language`).
 */
export const labelsAndVisitorProfile: Migration = {
  name: "0044-labels-and-visitor-profile",
  statements: [
    `CREATE TABLE labels (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      name text NOT NULL,
      colour text NOT NULL CHECK (colour ~ '^#[0-9a-f]{6}$'),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX labels_workspace_name_idx ON labels (workspace_id, lower(name))`,
    `CREATE TABLE conversation_labels (
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      label_id text NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (conversation_id, label_id)
    )`,
    `CREATE INDEX conversation_labels_label_idx ON conversation_labels (label_id, conversation_id)`,
    `CREATE INDEX conversation_labels_workspace_idx ON conversation_labels (workspace_id, label_id)`,
    `ALTER TABLE conversations ADD COLUMN visited_pages jsonb NOT NULL DEFAULT '[]'`,
    `ALTER TABLE conversations ADD COLUMN time_zone text`,
    `ALTER TABLE conversations ADD COLUMN language text`,
  ],
};
