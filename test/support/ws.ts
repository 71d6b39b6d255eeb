import WebSocket from 'ws';
import { waitFor } from './instance';

/** A WebSocket client that keeps every message it gets, for tests to wait on. */
export class WsClient {
  readonly messages: any[] = [];
  private constructor(readonly socket: WebSocket) {
    // binaryType is 'nodebuffer': every message arrives as one Buffer.
    socket.on('message', (data) => this.messages.push(JSON.parse((data as Buffer).toString('utf8'))));
  }

  static open(url: string, headers: Record<string, string> = {}) {
    return new Promise<WsClient>((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('unexpected-response', (_req, res) =>
        reject(Object.assign(new Error(`refused: ${res.statusCode}`), { status: res.statusCode })),
      );
      socket.once('error', reject);
    });
  }

  send(value: unknown) {
    this.socket.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  next(predicate: (m: any) => boolean, timeoutMs = 10_000) {
    return waitFor('a websocket message', async () => this.messages.find(predicate), timeoutMs, 20);
  }

  close() {
    return new Promise<void>((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
