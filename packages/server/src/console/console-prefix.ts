/** Where the console API is mounted. */
export const CONSOLE_PREFIX = "/api/v1/console";
