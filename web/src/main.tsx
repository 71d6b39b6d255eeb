// The web client: a header to search from, to reach the screens and to switch profiles, and the
// screen the address names, for the profile watching (asked first when the device has not said
// who is: screens/who.tsx).
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Browse } from './screens/browse';
import { CollectionScreen, Collections } from './screens/collections';
import { Home } from './screens/home';
import { Libraries } from './screens/libraries';
import { Logs, logLevelOf } from './screens/logs';
import { Movie } from './screens/movie';
import { EpisodePlayer, Player } from './screens/player';
import { Search } from './screens/search';
import { Settings } from './screens/settings';
import { ShowScreen } from './screens/show';
import { Unmatched } from './screens/unmatched';
import { WhoIsWatching } from './screens/who';
import { Loading } from './ui/load';
import { ProfileMenu } from './ui/profile-menu';
import { loadProfiles, useProfiles } from './ui/profiles';
import { navigate, onLinkClick, useRoute, type Route } from './ui/router';
import { ScreensMenu } from './ui/screens-menu';
import { StatusBanner } from './ui/status-banner';
import './styles.css';

/** Typing searches once typing pauses; the address follows, without piling up history. */
const SearchBox = ({ route }: { route: Route }) => {
  const [text, setText] = useState(route.screen === 'search' ? route.query : '');
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const onInput = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate(`/search?q=${encodeURIComponent(value)}`, { replace: route.screen === 'search' }), 250);
  };
  return (
    <input
      type="search"
      class="search"
      placeholder="Search films and shows"
      aria-label="Search films and shows"
      value={text}
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  );
};

const Screen = ({ route }: { route: Route }) => {
  switch (route.screen) {
    case 'home':
      return <Home />;
    case 'search':
      return <Search query={route.query} />;
    case 'movie':
      return <Movie id={route.id} />;
    case 'show':
      return <ShowScreen id={route.id} />;
    case 'browse':
      // Films and shows are screens of their own: nothing of one carries over to the other.
      return <Browse key={route.kind} kind={route.kind} query={route.query} />;
    case 'collections':
      return <Collections />;
    case 'collection':
      return <CollectionScreen id={route.id} />;
    case 'play':
      return <Player id={route.id} at={route.at} />;
    case 'playEpisode':
      return <EpisodePlayer showId={route.showId} episodeId={route.episodeId} at={route.at} />;
    case 'libraries':
      return <Libraries />;
    case 'unmatched':
      return <Unmatched />;
    case 'settings':
      return <Settings />;
    case 'logs':
      return <Logs level={logLevelOf(route.level)} />;
    case 'missing':
      return (
        <main class="problem" role="alert">
          <h2>Not found</h2>
          <p>
            Nothing lives at this address. <a href="/">Back to the library</a>
          </p>
        </main>
      );
  }
};

void loadProfiles();

/** The screen, once it is known who is watching; a switch of profile opens it anew, read for the new one. */
const ForProfile = ({ route }: { route: Route }) => {
  const profiles = useProfiles();
  if (profiles.current) return <Screen key={profiles.current} route={route} />;
  if (!profiles.list)
    return (
      <main>
        <Loading label="Loading" />
      </main>
    );
  return <WhoIsWatching profiles={profiles.list} />;
};

const App = () => {
  const route = useRoute();
  useEffect(() => scrollTo(0, 0), [route]);
  return (
    <div onClick={onLinkClick}>
      <header class="top">
        <a class="brand" href="/">
          Library
        </a>
        <SearchBox route={route} />
        <ScreensMenu route={route} />
        <ProfileMenu />
      </header>
      <StatusBanner />
      <ForProfile route={route} />
    </div>
  );
};

render(<App />, document.getElementById('app')!);
