import type { JSX } from "preact";

const THUMBS = [
  "M1 21h4V9H1v12zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z",
  "M15 3H6c-.83 0-1.54.5-1.84 1.22l-3.02 7.05c-.09.23-.14.47-.14.73v2c0 1.1.9 2 2 2h6.31l-.95 4.57-.03.32c0 .41.17.79.44 1.06L9.83 23l6.59-6.59c.36-.36.58-.86.58-1.41V5c0-1.1-.9-2-2-2zm4 0v12h4V3h-4z",
];

/**
 * A 👍/👎 pair of toggle buttons (real buttons, `aria-pressed`, named by `labels`), shared by the
 * satisfaction prompt and each answer's rating: `ratings` are what each stands for, `value` the one
 * pressed.
 */
export function RatingButtons<Rating extends string>({
  ratings,
  labels,
  value,
  onRate,
}: {
  ratings: readonly [Rating, Rating];
  labels: readonly [string, string];
  value: Rating | null | undefined;
  onRate(rating: Rating): void;
}): JSX.Element {
  return (
    <div class="fd-csat-ratings">
      {ratings.map((rating, index) => (
        <button key={rating} type="button" class="fd-rate" aria-pressed={value === rating} aria-label={labels[index]} onClick={() => onRate(rating)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={THUMBS[index]} />
          </svg>
        </button>
      ))}
    </div>
  );
}
