import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "../api/client.js";

/**
 * An action asked for, confirmed in a ConfirmDialog, then run: `ask(target)` opens the question,
 * `dialog` is what the dialog needs (null while nothing is asked). Cancel closes it and forgets an
 * earlier failure; success closes it and calls `onDone`.
 */
export function useConfirmedAction<Target, Result>(options: {
  run: (target: Target) => Promise<Result>;
  onStart?: () => void;
  onDone: (result: Result, target: Target) => void;
}) {
  const [target, setTarget] = useState<Target | null>(null);
  const action = useMutation({
    mutationFn: options.run,
    onMutate: options.onStart,
    onSuccess: (result, confirmed) => {
      setTarget(null);
      options.onDone(result, confirmed);
    },
  });
  return {
    /** What is being asked about. */
    target,
    ask: (asked: Target) => setTarget(asked),
    dialog:
      target === null
        ? null
        : {
            pending: action.isPending,
            error: action.isError ? describeError(action.error) : null,
            onConfirm: () => action.mutate(target),
            onCancel: () => {
              setTarget(null);
              action.reset();
            },
          },
  };
}
