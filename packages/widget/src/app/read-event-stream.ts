/**
 * Reads a Server-Sent Events body (from fetch, so that the request can carry the session token in
 * a header) and calls `onData` with each event's data, in order, as soon as its blank line arrives.
 * Comment lines (the service's heartbeats) are skipped.
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const flush = (block: string) => {
    const data: string[] = [];
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    }
    if (data.length > 0) onData(data.join("\n"));
  };
  for (;;) {
    const { done, value } = await reader.read();
    buffer += decoder.decode(value ?? new Uint8Array(), { stream: !done });
    const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
    buffer = blocks.pop() ?? "";
    for (const block of blocks) flush(block);
    if (done) {
      flush(buffer);
      return;
    }
  }
}
