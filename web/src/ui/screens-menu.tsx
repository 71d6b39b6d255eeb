// The header's list of screens: links in a row on a wide screen; on a phone, where they do not
// fit, a Menu button that opens them as a list, closed again by a choice, Escape or a click
// elsewhere. One list either way (styles.css decides which it looks like).
import { useEffect, useRef, useState } from 'preact/hooks';
import { useDismiss } from './dismiss';
import type { Route } from './router';

const SCREENS = [
  ['/movies', 'Films'],
  ['/shows', 'Shows'],
  ['/collections', 'Collections'],
  ['/libraries', 'Libraries'],
  ['/settings', 'Settings'],
  ['/logs', 'Log'],
] as const;

/** The link of the screen shown, if it is one of these. */
const currentOf = (route: Route) => {
  switch (route.screen) {
    case 'browse':
      return `/${route.kind}`;
    case 'collections':
    case 'libraries':
    case 'settings':
    case 'logs':
      return `/${route.screen}`;
    default:
      return null;
  }
};

export const ScreensMenu = ({ route }: { route: Route }) => {
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [route]);
  useDismiss(
    open,
    nav,
    () => setOpen(false),
    () => button.current,
  );
  const current = currentOf(route);
  return (
    <nav class="screens" aria-label="Screens" ref={nav}>
      <button
        type="button"
        class="menu-button"
        ref={button}
        aria-expanded={open}
        aria-controls="screens-list"
        onClick={() => setOpen((o) => !o)}
      >
        <span class="visually-hidden">Menu</span>
      </button>
      <ul id="screens-list" class={open ? 'open' : undefined} onClick={(e) => (e.target as Element).closest('a') && setOpen(false)}>
        {SCREENS.map(([href, name]) => (
          <li key={href}>
            <a href={href} aria-current={href === current ? 'page' : undefined}>
              {name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
};
