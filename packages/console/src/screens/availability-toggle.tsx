import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { OPERATORS_KEY } from "../settings/settings-keys.js";

const AVAILABILITY_KEY = ["me", "availability"] as const;

/**
 * "Away": the operator stays signed in and sees everything live, but counts as offline: requests are
 * not routed to them, the widget shows nobody online unless a colleague is, and the alerts for a
 * person asked for while nobody is online go out (PUT /console/me/availability).
 */
export function AvailabilityToggle() {
  const queryClient = useQueryClient();
  const hintId = useId();
  // The box shows the choice in the click's own render: the mutation's state reaches React a task
  // later, and until then React would put a controlled box back as it was.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const availability = useQuery({ queryKey: AVAILABILITY_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/me/availability"))).data });
  const change = useMutation({
    mutationFn: async (away: boolean) => (await dataOf(api.PUT("/api/v1/console/me/availability", { body: { away } }))).data,
    onSuccess: (data) => {
      queryClient.setQueryData(AVAILABILITY_KEY, data);
      void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
    },
  });
  const away = chosen ?? availability.data?.away ?? false;
  const choose = (value: boolean) => {
    setChosen(value);
    change.mutate(value, { onSettled: () => setChosen(null) });
  };
  return (
    <div className="availability">
      <label title="New requests skip you and the widget counts you as offline, while you stay signed in.">
        <input type="checkbox" checked={away} disabled={!availability.data || chosen !== null} aria-describedby={hintId} onChange={(event) => choose(event.target.checked)} /> Away
      </label>
      <span id={hintId} className="visually-hidden">
        New requests skip you and the widget counts you as offline, while you stay signed in.
      </span>
      {change.error && (
        <p role="alert" className="error">
          {describeError(change.error)}
        </p>
      )}
    </div>
  );
}
