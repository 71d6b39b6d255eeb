// "Who's watching?": asked once per device when there are several profiles (ui/profiles.ts),
// before any screen, since every screen shows one person's progress. A profile can be added
// here too, so a new member of the household needs no other screen first.
import type { Profile } from '../api/client';
import { chooseProfile } from '../ui/profiles';
import { AddProfile } from '../ui/profile-menu';

export const WhoIsWatching = ({ profiles }: { profiles: Profile[] }) => (
  <main class="who">
    <h1 class="screen-title">Who’s watching?</h1>
    <ul class="who-list" aria-label="Profiles">
      {profiles.map((p, i) => (
        <li key={p.id}>
          <button type="button" class="who-profile" autofocus={i === 0} onClick={() => chooseProfile(p.id)}>
            <span class="who-initial" aria-hidden="true">
              {p.name.slice(0, 1).toUpperCase()}
            </span>
            {p.name}
          </button>
        </li>
      ))}
    </ul>
    <AddProfile />
  </main>
);
