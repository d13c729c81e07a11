import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/**
 * A WebSocket client written on a bare TCP socket, so a test can stop reading (a slow client)
 * — something no WebSocket library lets a caller do. Sends text frames; reads only the handshake.
 */
export async function bareWebSocket(port: number, path: string): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (!received.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      if (received.startsWith("HTTP/1.1 101")) resolve();
      else reject(new Error(received.split("\r\n")[0]));
    };
    socket.on("data", onData);
  });
  return socket;
}

/** One masked text frame, as a client must send it (payloads under 64 KB). */
export function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const mask = randomBytes(4);
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.alloc(payload.length);
  for (let index = 0; index < payload.length; index++) masked[index] = (payload[index] ?? 0) ^ (mask[index % 4] ?? 0);
  return Buffer.concat([header, mask, masked]);
}
