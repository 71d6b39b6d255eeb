// A film: its backdrop over its colours, poster, where the current profile stopped in it (resume
// or start again, mark played), its favourite's heart, overview, the collection it is part of, cast, its match (fixed
// by hand when wrong) and the file it plays from.
import { useMemo } from 'preact/hooks';
import { profileApi, unwrap, type MovieDetail } from '../api/client';
import { Detail } from '../ui/detail';
import { Show, useLoad } from '../ui/load';
import { MatchControls, movieMatching } from '../ui/match';
import { FavoriteButton, MarkButton, PlayLinks } from '../ui/play-actions';
import { PlayedMark, useUserDataChanges } from '../ui/watching';

export const duration = (seconds: number | null) => {
  if (seconds === null) return null;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
};

const size = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1e6))} MB`);

const FileDetails = ({ file }: { file: MovieDetail['file'] }) => {
  const facts = [
    file.container?.toUpperCase(),
    duration(file.durationSeconds),
    file.video &&
      [file.video.codec, file.video.width && file.video.height ? `${file.video.width}x${file.video.height}` : null, file.video.hdr]
        .filter(Boolean)
        .join(' '),
    file.audio.length
      ? file.audio.map((a) => [a.codec, a.channels ? `${a.channels} ch` : null, a.language].filter(Boolean).join(' ')).join(', ')
      : null,
    size(file.size),
    file.parts > 1 ? `${file.parts} parts` : null,
  ].filter(Boolean);
  return (
    <dl class="file">
      <dt>File</dt>
      <dd>{file.path}</dd>
      <dt>Details</dt>
      <dd>{facts.join(' · ')}</dd>
    </dl>
  );
};

export const Movie = ({ id }: { id: string }) => {
  const [loaded, retry, replace] = useLoad(
    async () => (await unwrap(profileApi.GET('/api/v1/movies/{movieId}', { params: { path: { movieId: id } } }))).data,
    [id],
  );
  const matching = useMemo(() => movieMatching(id), [id]);
  useUserDataChanges((mediaId, userData) => loaded.state === 'done' && mediaId === id && replace({ ...loaded.value, userData }));
  return (
    <Show loaded={loaded} retry={retry} label="Loading the film">
      {(movie) => {
        const { media } = movie;
        const cast = movie.metadata.cast.slice(0, 12);
        return (
          <Detail media={media}>
            <div class="play-actions">
              <PlayLinks href={`/play/${movie.id}`} userData={movie.userData} big />
              <MarkButton
                mediaId={movie.id}
                played={movie.userData?.played ?? false}
                onMarked={(userData) => replace({ ...movie, userData })}
              />
              <PlayedMark userData={movie.userData} />
              <FavoriteButton
                mediaId={movie.id}
                favorite={movie.userData?.favorite ?? false}
                onChanged={(userData) => replace({ ...movie, userData })}
              />
            </div>
            {media.overview && <p class="overview">{media.overview}</p>}
            {movie.metadata.collection && (
              <p class="collection-link">
                Part of <a href={`/collections/${movie.metadata.collection.id}`}>{movie.metadata.collection.name}</a>
              </p>
            )}
            {cast.length > 0 && (
              <ul class="cast" aria-label="Cast">
                {cast.map((p) => (
                  <li key={p.name}>
                    {p.name}
                    {p.character && <span> as {p.character}</span>}
                  </li>
                ))}
              </ul>
            )}
            {/* A match's answer describes the film anew, without anyone's state: the page keeps its own. */}
            <MatchControls
              key={movie.id}
              item={movie}
              matching={matching}
              onDescribed={(described) => replace({ ...described, userData: movie.userData })}
            />
            <FileDetails file={movie.file} />
          </Detail>
        );
      }}
    </Show>
  );
};
