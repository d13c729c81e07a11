/**
 * A message as plain text can show it: its words, then a line naming the files sent with it
 * ("📎 guide.pdf, photo.jpg"). A message may be files alone; a text of it (an e-mail, a transcript,
 * the inbox's preview) then names them rather than showing nothing. The files themselves stay behind
 * the conversation's links.
 */
export function textWithFiles(content: string, files: readonly string[] = []): string {
  const words = content.trim();
  if (files.length === 0) return words;
  const line = `📎 ${files.join(", ")}`;
  return words === "" ? line : `${words}\n${line}`;
}
