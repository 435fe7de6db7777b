import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLibraries } from '../../api/library';
import { useAllUserActivity } from '../../api/stats';
import { useTimeline } from '../../api/history';
import { Panel } from '../../components/Panel';
import { Poster } from '../../components/media';
import { formatDateTime } from '../../lib/format';
import { mergeConsecutiveSeasons, toggleAll } from '../../lib/rules';
import { STORAGE, usePreference } from '../../store/preferences';

/** User and library selectors and the timeline; it renders only with a user and at least one library. */
export function TimelineView({ fixedUserId }: { fixedUserId?: string }) {
  const { t } = useTranslation();
  // The users list is for choosing one; with the user fixed (a user's page, a viewer's own) it is not asked for.
  const users = useAllUserActivity(!fixedUserId);
  const libraries = useLibraries();
  const [storedUser, setStoredUser] = usePreference<string>(STORAGE.timelineUser, '');
  const [selected, setSelected] = usePreference<string[]>(STORAGE.timelineLibraries, []);
  const [hour12] = usePreference(STORAGE.hour12, false);
  const userId = fixedUserId ?? storedUser;
  const allLibraries = (libraries.data ?? []).map((library) => library.Id);
  const timeline = useTimeline(userId, selected);
  const entries = mergeConsecutiveSeasons(timeline.data ?? []);
  const ready = userId !== '' && selected.length > 0;
  return (
    <div>
      <div className="mb-4 flex flex-col gap-3 md:flex-row md:items-start">
        {!fixedUserId && (
          <div>
            <label htmlFor="timeline-user" className="label">
              {t('timeline.user')}
            </label>
            <select id="timeline-user" className="input w-56" value={storedUser} onChange={(e) => setStoredUser(e.target.value)}>
              <option value="">{t('timeline.chooseUser')}</option>
              {(users.data ?? []).map((user) => (
                <option key={user.UserId} value={user.UserId}>
                  {user.UserName}
                </option>
              ))}
            </select>
          </div>
        )}
        <fieldset className="min-w-0 flex-1">
          <legend className="label">{t('timeline.libraries')}</legend>
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className="btn-secondary px-2 py-1 text-xs"
              onClick={() => setSelected(toggleAll(selected, allLibraries))}
            >
              {t('common.toggleAll')}
            </button>
            {(libraries.data ?? []).map((library) => (
              <label key={library.Id} className="flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={selected.includes(library.Id)}
                  onChange={() =>
                    setSelected(selected.includes(library.Id) ? selected.filter((id) => id !== library.Id) : [...selected, library.Id])
                  }
                />
                {library.Name}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {!ready ? (
        <p className="card text-sm text-gray-400" data-testid="timeline-hint">
          {t('timeline.needSelection')}
        </p>
      ) : (
        <Panel isLoading={timeline.isLoading} error={timeline.error} isEmpty={entries.length === 0} empty="activity.empty">
          <ol className="relative ml-3 border-l border-gray-700" data-testid="timeline">
            {entries.map((entry, index) => (
              <li key={`${entry.Title}-${entry.FirstActivityDate}-${index}`} className="mb-4 ml-4">
                <span className="absolute -left-1.5 mt-2 h-3 w-3 rounded-full border border-gray-900 bg-blue-500" aria-hidden />
                <div className="card flex gap-3 p-3">
                  <Poster id={entry.NowPlayingItemId} alt={entry.Title} className="h-20 w-14" />
                  <div className="min-w-0 text-sm">
                    <div className="font-medium text-white">
                      {entry.NowPlayingItemId ? (
                        <Link className="hover:underline" to={`/libraries/item/${entry.NowPlayingItemId}`}>
                          {entry.Title}
                        </Link>
                      ) : (
                        entry.Title
                      )}
                    </div>
                    {entry.SeasonName && <div className="text-gray-400">{entry.SeasonName}</div>}
                    {entry.MediaType !== 'Movie' && (
                      <div className="text-gray-400">{t('timeline.episodes', { count: entry.EpisodeCount ?? 0 })}</div>
                    )}
                    <div className="text-xs text-gray-500">
                      {formatDateTime(entry.FirstActivityDate, hour12)}
                      {entry.LastActivityDate !== entry.FirstActivityDate && ` – ${formatDateTime(entry.LastActivityDate, hour12)}`}
                    </div>
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </Panel>
      )}
    </div>
  );
}
