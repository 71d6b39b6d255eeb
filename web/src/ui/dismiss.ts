// A menu that closes on a click outside it and on Escape, focus going back to what opened it.
// Listening from the moment it shows (a layout effect, not a frame later), so a quick click
// elsewhere closes it too.
import { useLayoutEffect } from 'preact/hooks';

export const useDismiss = (
  open: boolean,
  within: { readonly current: Element | null },
  close: () => void,
  opener: () => HTMLElement | null | undefined,
) => {
  useLayoutEffect(() => {
    if (!open) return undefined;
    const outside = (event: Event) => {
      if (!within.current?.contains(event.target as Node)) close();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      opener()?.focus();
    };
    document.addEventListener('click', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('click', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
};
