import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { YearReviewAnswer } from '@reelstat/contract';
import { fetchYearReviewCard, useYearReview } from '../../api/year-review';
import { useAllUserActivity } from '../../api/stats';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { toast } from '../../components/toasts';
import { formatDateTime, formatDuration } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';

const FIRST_YEAR = 2000;

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-lg border border-gray-800 bg-gray-900 p-4" data-testid="year-figure">
      <div className="text-sm text-gray-400">{label}</div>
      <div className="text-2xl font-semibold text-white">{value}</div>
      {note && <div className="mt-1 text-xs text-gray-400">{note}</div>}
    </div>
  );
}

function Top({ title, rows }: { title: string; rows: Array<{ key: string; name: string; seconds: number; plays: number }> }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-lg border border-gray-800 bg-gray-900 p-4">
      <h2 className="mb-2 font-semibold text-white">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-gray-400">{t('common.na')}</p>
      ) : (
        <ol className="space-y-1">
          {rows.map((row, index) => (
            <li key={row.key} className="flex justify-between gap-3">
              <span className="truncate">
                {index + 1}. {row.name}
              </span>
              <span className="whitespace-nowrap text-gray-400">
                {formatDuration(row.seconds)} · {t('yearReview.plays', { count: row.plays })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Review({ review, hour12 }: { review: YearReviewAnswer; hour12: boolean }) {
  const { t } = useTranslation();
  const average = review.Server.AverageWatchSecondsPerUser;
  const comparison =
    review.UserId && average > 0
      ? t('yearReview.comparedUser', { percent: Math.round((review.WatchSeconds / average) * 100), average: formatDuration(average) })
      : t('yearReview.comparedServer', { users: review.Server.ActiveUsers, average: formatDuration(average) });
  const binge = review.LongestBinge;
  return (
    <>
      <div className="mb-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure label={t('yearReview.watchTime')} value={formatDuration(review.WatchSeconds)} note={comparison} />
        <Figure label={t('yearReview.playsLabel')} value={review.Plays.toLocaleString()} />
        <Figure
          label={t('yearReview.busiestDay')}
          value={review.BusiestDay?.Date ?? t('common.na')}
          note={review.BusiestDay ? formatDuration(review.BusiestDay.WatchSeconds) : undefined}
        />
        <Figure
          label={t('yearReview.busiestHour')}
          value={review.BusiestHour ? `${String(review.BusiestHour.Hour).padStart(2, '0')}:00` : t('common.na')}
          note={review.BusiestHour ? formatDuration(review.BusiestHour.WatchSeconds) : undefined}
        />
      </div>
      <div className="mb-4 grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Top
          title={t('yearReview.topItems')}
          rows={review.TopItems.map((r) => ({ key: r.Id, name: r.Name, seconds: r.WatchSeconds, plays: r.Plays }))}
        />
        <Top
          title={t('yearReview.topSeries')}
          rows={review.TopSeries.map((r) => ({ key: r.Id, name: r.Name, seconds: r.WatchSeconds, plays: r.Plays }))}
        />
        <Top
          title={t('yearReview.topGenres')}
          rows={review.TopGenres.map((r) => ({ key: r.Genre, name: r.Genre, seconds: r.WatchSeconds, plays: r.Plays }))}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Figure
          label={t('yearReview.longestBinge')}
          value={binge ? formatDuration(binge.WatchSeconds) : t('common.na')}
          note={
            binge
              ? t('yearReview.binge', {
                  title: binge.Title,
                  count: binge.Plays,
                  user: binge.UserName,
                  date: formatDateTime(binge.Start, hour12),
                })
              : undefined
          }
        />
        <Figure
          label={t('yearReview.firstPlay')}
          value={review.FirstPlay?.Title ?? t('common.na')}
          note={review.FirstPlay ? formatDateTime(review.FirstPlay.Date, hour12) : undefined}
        />
        <Figure
          label={t('yearReview.lastPlay')}
          value={review.LastPlay?.Title ?? t('common.na')}
          note={review.LastPlay ? formatDateTime(review.LastPlay.Date, hour12) : undefined}
        />
      </div>
    </>
  );
}

/** Whose year: the whole server or one of its users (administrators only: it lists every user). */
function WhoSelect({ value, onChange }: { value: string; onChange: (user: string) => void }) {
  const { t } = useTranslation();
  const users = useAllUserActivity();
  return (
    <label className="flex items-center gap-2">
      <span className="text-sm text-gray-400">{t('yearReview.who')}</span>
      <select className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('yearReview.wholeServer')}</option>
        {(users.data ?? []).map((user) => (
          <option key={user.UserId} value={user.UserId}>
            {user.UserName}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The year in review of the server or (`?user=`) of one user, with its shareable PNG card. A viewer's page
 * passes their own id (`ownUserId`): no choice of user, and no way to the server's year.
 */
export default function YearReview({ ownUserId }: { ownUserId?: string }) {
  const { t } = useTranslation();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [params, setParams] = useSearchParams();
  const thisYear = new Date().getFullYear();
  const year = Number(params.get('year')) || thisYear;
  const userId = ownUserId ?? params.get('user') ?? undefined;
  const review = useYearReview({ year, userId });
  const [card, setCard] = useState<{ url: string; fileName: string } | null>(null);
  useEffect(() => () => (card ? URL.revokeObjectURL(card.url) : undefined), [card]);
  const choose = (next: { year?: number; user?: string }) => {
    const merged = new URLSearchParams(params);
    if (next.year !== undefined) merged.set('year', String(next.year));
    if (next.user !== undefined) {
      if (next.user) merged.set('user', next.user);
      else merged.delete('user');
    }
    setCard(null);
    setParams(merged);
  };
  async function makeCard() {
    try {
      setCard(await fetchYearReviewCard({ year, userId }));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }
  const years = Array.from({ length: Math.max(1, thisYear - FIRST_YEAR + 1) }, (_, i) => thisYear - i).slice(0, 10);
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">
          {review.data?.UserName ? t('yearReview.titleUser', { year, name: review.data.UserName }) : t('yearReview.title', { year })}
        </h1>
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2">
            <span className="text-sm text-gray-400">{t('yearReview.year')}</span>
            <select className="input" value={year} onChange={(event) => choose({ year: Number(event.target.value) })}>
              {years.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
          {!ownUserId && <WhoSelect value={userId ?? ''} onChange={(user) => choose({ user })} />}
          <button type="button" className="btn-primary" onClick={() => void makeCard()}>
            {t('yearReview.card')}
          </button>
        </div>
      </div>
      {card && (
        <div className="mb-4 rounded-lg border border-gray-800 bg-gray-900 p-4">
          <img src={card.url} alt={t('yearReview.cardAlt', { year })} className="mb-3 w-full max-w-2xl rounded" data-testid="year-card" />
          <a className="btn-secondary" href={card.url} download={card.fileName}>
            {t('yearReview.download')}
          </a>
        </div>
      )}
      <Panel isLoading={review.isLoading} error={review.error} isEmpty={!review.data} empty="yearReview.empty">
        {review.data && <Review review={review.data} hour12={hour12} />}
      </Panel>
      {userId && (
        <p className="mt-4">
          <Link className="link" to={ownUserId ? '/' : `/users/${userId}`}>
            {t('yearReview.backToUser')}
          </Link>
        </p>
      )}
    </div>
  );
}
