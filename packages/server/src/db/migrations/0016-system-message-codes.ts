import type { Migration } from "./migration.js";

/**
 * System messages get a stable code (`messages.system_code`), which the widget and the console
 * show in their own words; `content` keeps the English text for older clients. `operator_joined`
 * keeps the operator who joined as the message's author (`operator_id`, `author_name`), the name
 * its text needs.
 *
 * The system messages already stored are given theirs from the English texts the service wrote
 * (conversations/apply-transition.ts): "Waiting for a person to join", "Ana joined the
 * conversation", "The assistant is back", "Conversation closed", "Conversation reopened". A system
 * text it does not know keeps a null code (clients show its content).
 */
export const systemMessageCodes: Migration = {
  name: "0016-system-message-codes",
  statements: [
    `ALTER TABLE messages ADD COLUMN system_code text CHECK (system_code IS NULL OR role = 'system')`,
    `UPDATE messages SET
       system_code = CASE
         WHEN content = 'Waiting for a person to join' THEN 'human_requested'
         WHEN content = 'The assistant is back' THEN 'bot_resumed'
         WHEN content = 'Conversation closed' THEN 'conversation_closed'
         WHEN content = 'Conversation reopened' THEN 'conversation_reopened'
         WHEN content LIKE '_% joined the conversation' THEN 'operator_joined'
       END,
       author_name = CASE
         WHEN content LIKE '_% joined the conversation' THEN left(content, length(content) - length(' joined the conversation'))
         ELSE author_name
       END
     WHERE role = 'system'`,
  ],
};
