/**
 * Bytes to store in a bytea column, as base64 text that the SQL decodes with `decode($n, 'base64')`.
 * Given as a binary parameter, a 25 MB file took PGlite's client 2.1 GB of memory to send (it spells
 * a bytea out in hex, piece by piece), against 0.46 GB this way; pg spells a Buffer in hex too.
 */
export function byteaParameter(content: Uint8Array): string {
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString("base64");
}
