// The service's live events (/ws on the same host): scan progress, library changes and the
// box's status reach the screens without a reload. One socket for the whole page, shared by
// every screen listening; it reconnects after a drop, a little later each time.
import { useEffect, useRef } from 'preact/hooks';

export type ServiceEvent = { type: string; [field: string]: unknown };
type Listener = (event: ServiceEvent) => void;

const listeners = new Set<Listener>();
let socket: WebSocket | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let delay = 1000;

const open = () => {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  socket = ws;
  ws.onopen = () => (delay = 1000);
  ws.onmessage = (message) => {
    let event: ServiceEvent;
    try {
      event = JSON.parse(String(message.data)) as ServiceEvent;
    } catch {
      return; // not an event of ours
    }
    for (const listener of listeners) listener(event);
  };
  ws.onclose = () => {
    if (socket !== ws || listeners.size === 0) return;
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 30_000);
  };
};

const subscribe = (listener: Listener) => {
  listeners.add(listener);
  if (!socket) open();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    clearTimeout(timer);
    const ws = socket;
    socket = undefined;
    ws?.close();
  };
};

export const useEvents = (onEvent: Listener) => {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => subscribe((event) => handler.current(event)), []);
};
