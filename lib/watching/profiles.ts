// Who is watching: the household's profile, always there and never deleted, and those people
// name for themselves. No passwords: the LAN is trusted.
import { defaultProfileProtected, invalidRequest, nameTaken, notFound } from '../errors';
import { DEFAULT_PROFILE, NameTaken, type Profile } from './model';
import { nowOf, type WatchingDeps } from './watching-deps';

const randomId = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16);

export class Profiles {
  constructor(
    private readonly deps: Pick<WatchingDeps, 'profiles' | 'clock' | 'newId'>,
    /** Told of a profile deleted, so that nothing kept of its state outlives it. */
    private readonly deleted: (id: string) => void,
  ) {}

  list(): Promise<Profile[]> {
    return this.deps.profiles.profiles();
  }

  /** 404 unless the profile exists; the household's always does, so it costs no read (most requests are its). */
  async require(id: string): Promise<void> {
    if (id !== DEFAULT_PROFILE.id) await this.get(id);
  }

  async get(id: string): Promise<Profile> {
    const found = await this.deps.profiles.profile(id);
    if (!found) throw notFound(`Profile ${id}`);
    return found;
  }

  async create(name: string): Promise<Profile> {
    const profile: Profile = {
      id: `pf_${(this.deps.newId ?? randomId)()}`,
      name: name.trim(),
      createdAt: new Date(nowOf(this.deps)).toISOString(),
    };
    await this.claiming(profile.name, () => this.deps.profiles.save(profile));
    return profile;
  }

  async rename(id: string, name: string): Promise<Profile> {
    const before = await this.get(id);
    const after = { ...before, name: name.trim() };
    if (after.name === before.name) return before;
    await this.claiming(after.name, () => this.deps.profiles.save(after, before));
    return after;
  }

  async delete(id: string): Promise<void> {
    if (id === DEFAULT_PROFILE.id) throw defaultProfileProtected();
    await this.deps.profiles.removeProfile(await this.get(id));
    this.deleted(id);
  }

  private async claiming(name: string, save: () => Promise<void>) {
    if (!name) throw invalidRequest([{ field: 'body/name', message: 'must not be blank' }]);
    // The household's own name, while it has it, is as taken as any other.
    const household = await this.deps.profiles.profile(DEFAULT_PROFILE.id);
    if (household === DEFAULT_PROFILE && name.toLocaleLowerCase('en') === DEFAULT_PROFILE.name.toLocaleLowerCase('en'))
      throw nameTaken(name);
    try {
      await save();
    } catch (err) {
      if (err instanceof NameTaken) throw nameTaken(name);
      throw err;
    }
  }
}
