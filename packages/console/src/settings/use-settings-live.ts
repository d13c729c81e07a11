import type { OperatorEvent } from "@frontdesk/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useChannel } from "../realtime/use-channel.js";
import { ME_QUERY_KEY, useOperator } from "../session.js";
import { OPERATORS_KEY, TOKENS_KEY, USAGE_KEY } from "./settings-keys.js";

/**
 * Keeps an open Settings page live from the workspace channel: a token issued or revoked (here,
 * by another admin or by the CLI) reads the tokens again; an operator invited, changed or removed
 * reads the operators again (and the signed-in operator's own role, when it is theirs); a started
 * conversation reads the usage again. Every (re)subscription reads all three, for what was missed.
 * A token's "last used" is not announced (it would be an event per API call): it is as fresh as
 * the last of these reads, or the window's last focus.
 */
export function useSettingsLive(): void {
  const me = useOperator();
  const queryClient = useQueryClient();
  const reread = (key: readonly string[]) => () => void queryClient.invalidateQueries({ queryKey: key });
  const operatorChanged = (event: OperatorEvent) => {
    void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
    if (event.operator_id === me.id && event.role !== me.role) void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
  };
  useChannel(
    `private-workspace.${me.workspace_id}`,
    {
      "token.created": reread(TOKENS_KEY),
      "token.revoked": reread(TOKENS_KEY),
      "operator.invited": operatorChanged,
      "operator.updated": operatorChanged,
      "operator.removed": operatorChanged,
      "conversation.started": reread(USAGE_KEY),
    },
    () => {
      for (const key of [TOKENS_KEY, OPERATORS_KEY, USAGE_KEY]) void queryClient.invalidateQueries({ queryKey: key });
    },
  );
}
