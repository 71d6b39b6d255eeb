// Who is watching on this device. The choice is the device's (localStorage): a TV in the
// living room stays the household's, a phone its owner's. With one profile there is nothing to
// choose and it is used without asking (nor remembered: once a second one exists, the device
// asks); with several, the page asks "Who's watching?" first (screens/who.tsx). Whatever is
// chosen goes out with every request that answers for a profile (api/client.ts: profileApi).
import { useEffect, useState } from 'preact/hooks';
import { api, setProfileId, unwrap, type Profile } from '../api/client';

const KEY = 'profileId';

const stored = (): string | null => {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage off (a private window on some browsers): asked each visit
  }
};
const store = (id: string | null) => {
  try {
    if (id) localStorage.setItem(KEY, id);
    else localStorage.removeItem(KEY);
  } catch {
    // kept for this visit only
  }
};

export interface Profiles {
  /** Every profile, once the service has said (null until then). */
  list: Profile[] | null;
  /** The profile requests go out as; null while the page must ask who is watching (or cannot tell yet). */
  current: string | null;
}

let chosen = stored();
let list: Profile[] | null = null;
/** The list could not be read: the household's profile, so the screens can say what is wrong themselves. */
let unreadable = false;
const listeners = new Set<() => void>();

const currentOf = (): string | null => {
  if (chosen && (!list || list.some((p) => p.id === chosen))) return chosen;
  if (list?.length === 1) return list[0]!.id;
  return unreadable && !list ? 'default' : null;
};

let state: Profiles = { list, current: currentOf() };
setProfileId(state.current ?? 'default');

const changed = () => {
  // A remembered profile deleted elsewhere is forgotten: the device asks again.
  if (chosen && list && !list.some((p) => p.id === chosen)) {
    chosen = null;
    store(null);
  }
  state = { list, current: currentOf() };
  setProfileId(state.current ?? 'default');
  listeners.forEach((l) => l());
};

/** Reads the profiles again (at start, and when the menu opens: another device may have added one). */
export const loadProfiles = async () => {
  try {
    list = (await unwrap(api.GET('/api/v1/profiles'))).data;
    unreadable = false;
  } catch {
    unreadable = true;
  }
  changed();
};

/** This device watches as `id` from now on. */
export const chooseProfile = (id: string) => {
  chosen = id;
  store(id);
  changed();
};

export const addProfile = async (name: string) => {
  const profile = (await unwrap(api.POST('/api/v1/profiles', { body: { name } }))).data;
  // Whoever adds a profile here is using this device as the current one: remembered, so the
  // device does not start asking who is watching in the middle of an evening.
  if (!chosen && state.current) chooseProfile(state.current);
  list = [...(list ?? []), profile];
  changed();
  return profile;
};

export const renameProfile = async (id: string, name: string) => {
  const profile = (await unwrap(api.PATCH('/api/v1/profiles/{profileId}', { params: { path: { profileId: id } }, body: { name } }))).data;
  list = (list ?? []).map((p) => (p.id === id ? profile : p));
  changed();
};

export const deleteProfile = async (id: string) => {
  await unwrap(api.DELETE('/api/v1/profiles/{profileId}', { params: { path: { profileId: id } } }));
  list = (list ?? []).filter((p) => p.id !== id);
  changed();
};

export const useProfiles = (): Profiles => {
  const [value, setValue] = useState(state);
  useEffect(() => {
    const update = () => setValue(state);
    listeners.add(update);
    update();
    return () => void listeners.delete(update);
  }, []);
  return value;
};

export const profileName = (profiles: Profiles) => profiles.list?.find((p) => p.id === profiles.current)?.name ?? null;
