/** Where files are served to visitors (sources/file-routes.ts). */
export const FILES_PREFIX = "/api/v1/files";

/** The stable URL of a stored file: its unguessable public id, then its name (for the browser's sake only). */
export function publicFileUrl(publicUrl: string, publicId: string, filename: string): string {
  return `${publicUrl}${FILES_PREFIX}/${publicId}/${encodeURIComponent(filename)}`;
}
