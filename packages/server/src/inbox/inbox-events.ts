import type { DomainEventSubscriber } from "../events/domain-events.js";
import type { FrontdeskEvent } from "../events/frontdesk-events.js";
import { notifyWorkspaceOperators } from "./inbox-repository.js";

/**
 * The inbox's subscriber: news for the console's inbox, in the change's transaction.
 * - `answer_tests.regressed`: each admin of the workspace is told which of an agent's answer tests
 *   passed in the previous run and fail now (kind `answer_tests.regressed`, no conversation).
 * A request for a person notifies the inbox from its own use case (conversations/hand-to-a-person.ts).
 */
export const notifyInboxOf =
  (): DomainEventSubscriber<FrontdeskEvent> =>
  async (tx, event) => {
    if (event.type !== "answer_tests.regressed") return;
    await notifyWorkspaceOperators(tx, {
      workspaceId: event.workspaceId,
      kind: "answer_tests.regressed",
      conversationId: null,
      onlyAdmins: true,
      payload: {
        agent_id: event.agentId,
        run_id: event.runId,
        tests: event.tests.slice(0, 20).map((test) => ({ id: test.id, question: test.question, reason: test.reason })),
        regressed: event.tests.length,
      },
    });
  };
