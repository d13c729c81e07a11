import { wordpressPostSchema, WORDPRESS_PUBLISHED_STATUSES, type WordpressPost } from "@frontdesk/contracts";

/** A post of a batch after its own validation: either readable, or rejected with its fields keyed `posts.{index}.{member}`. */
export type CheckedPost =
  | { index: number; ok: true; post: WordpressPost; published: boolean }
  | { index: number; ok: false; postId: number | null; fields: Record<string, string[]> };

const postIdOf = (value: unknown): number | null => {
  if (typeof value !== "object" || value === null) return null;
  const postId = (value as { post_id?: unknown }).post_id;
  return typeof postId === "number" && Number.isSafeInteger(postId) && postId > 0 ? postId : null;
};

export const isPublishedStatus = (status: string): boolean => (WORDPRESS_PUBLISHED_STATUSES as readonly string[]).includes(status);

function addField(fields: Record<string, string[]>, key: string, message: string): void {
  (fields[key] ??= []).push(message);
}

/** Marks every post sharing a value with another post of the batch as rejected: which of them is right cannot be known. */
function rejectRepeats(checked: CheckedPost[], member: "post_id" | "url", valueOf: (entry: Extract<CheckedPost, { ok: true }>) => string | null): CheckedPost[] {
  const positions = new Map<string, number[]>();
  for (const entry of checked) {
    if (!entry.ok) continue;
    const value = valueOf(entry);
    if (value !== null) positions.set(value, [...(positions.get(value) ?? []), entry.index]);
  }
  return checked.map((entry) => {
    if (!entry.ok) return entry;
    const value = valueOf(entry);
    const at = value === null ? [] : (positions.get(value) ?? []);
    if (at.length < 2) return entry;
    const what = member === "post_id" ? `post ${entry.post.post_id}` : "this URL";
    return {
      index: entry.index,
      ok: false,
      postId: entry.post.post_id,
      fields: { [`posts.${entry.index}.${member}`]: [`${what} appears more than once in this batch (posts ${at.join(", ")}); send each once`] },
    };
  });
}

/**
 * Validates each post of a batch on its own (zod, then the batch's own rules: a post ID, or a
 * published post's URL, given twice rejects every post that has it).
 */
export function checkPosts(raw: readonly unknown[]): CheckedPost[] {
  const checked = raw.map((value, index): CheckedPost => {
    const parsed = wordpressPostSchema.safeParse(value);
    if (parsed.success) return { index, ok: true, post: parsed.data, published: isPublishedStatus(parsed.data.status) };
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      addField(fields, ["posts", index, ...issue.path.map(String)].join("."), issue.message);
    }
    return { index, ok: false, postId: postIdOf(value), fields };
  });
  const byId = rejectRepeats(checked, "post_id", (entry) => String(entry.post.post_id));
  return rejectRepeats(byId, "url", (entry) => (entry.published ? entry.post.url : null));
}
