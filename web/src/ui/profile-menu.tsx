// The header's profile: the current profile's name, opening a menu to switch to another, add
// one by name, or rename the current one (deleting is on the settings screen, away from a
// mis-click). A <details> opens and closes without script; a click elsewhere or Escape closes it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { asApiError } from '../api/client';
import { useDismiss } from './dismiss';
import { fieldText } from './form-field';
import { addProfile, chooseProfile, loadProfiles, profileName, renameProfile, useProfiles } from './profiles';

/** A one-field form for a profile's name; the service's problem (a name taken) is shown beside it. */
const NameForm = ({
  label,
  action,
  initial = '',
  submit,
  done,
}: {
  label: string;
  action: string;
  initial?: string;
  submit: (name: string) => Promise<unknown>;
  done?: () => void;
}) => {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="name-form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const name = fieldText(new FormData(form), 'name').trim();
        if (!name || busy) return;
        setBusy(true);
        setError('');
        submit(name).then(
          () => {
            setBusy(false);
            if (!initial) form.reset();
            done?.();
          },
          (e: unknown) => {
            setBusy(false);
            const problem = asApiError(e, 'Not saved');
            setError(problem.status === 409 ? `“${name}” is taken.` : problem.detail || problem.title);
          },
        );
      }}
    >
      <label>
        {label} <input name="name" required maxLength={40} autocomplete="off" defaultValue={initial} key={initial} />
      </label>
      <button type="submit">{action}</button>
      {error && (
        <p class="name-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
};

export const AddProfile = ({ done }: { done?: () => void }) => (
  <NameForm label="New profile" action="Add" submit={addProfile} done={done} />
);

export const ProfileMenu = () => {
  const profiles = useProfiles();
  const menu = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = () => {
    if (menu.current) menu.current.open = false;
  };
  useEffect(() => {
    if (open) void loadProfiles(); // someone may have added one on another device
  }, [open]);
  useDismiss(open, menu, close, () => menu.current?.querySelector('summary'));
  const name = profileName(profiles);
  if (!profiles.current || !name) return null;
  const others = (profiles.list ?? []).filter((p) => p.id !== profiles.current);
  return (
    <details class="profile-menu" ref={menu} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary aria-label={`Profile: ${name}`}>{name}</summary>
      {open && (
        <div class="menu">
          {others.length > 0 && (
            <ul aria-label="Switch profile">
              {others.map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    onClick={() => {
                      close();
                      chooseProfile(p.id);
                    }}
                  >
                    {p.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <NameForm label="Rename" action="Rename" initial={name} submit={(n) => renameProfile(profiles.current!, n)} done={close} />
          <AddProfile />
        </div>
      )}
    </details>
  );
};
