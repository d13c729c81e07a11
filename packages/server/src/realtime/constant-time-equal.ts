import { timingSafeEqual } from "node:crypto";

/** Whether two strings are equal, in time that depends only on their lengths. */
export function constantTimeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  // timingSafeEqual needs equal lengths; comparing `b` with itself keeps the work alike.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
