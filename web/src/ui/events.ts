// The service's live events (/ws on the same host): scan progress and library changes reach
// the screens without a reload. Reconnects after a drop, a little later each time.
import { useEffect, useRef } from 'preact/hooks';

export type ServiceEvent = { type: string; [field: string]: unknown };

export const useEvents = (onEvent: (event: ServiceEvent) => void) => {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let socket: WebSocket | undefined;
    let closed = false;
    let delay = 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
      socket.onopen = () => (delay = 1000);
      socket.onmessage = (message) => {
        try {
          handler.current(JSON.parse(String(message.data)) as ServiceEvent);
        } catch {
          // Not an event of ours.
        }
      };
      socket.onclose = () => {
        if (closed) return;
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, 30_000);
      };
    };
    open();
    return () => {
      closed = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, []);
};
