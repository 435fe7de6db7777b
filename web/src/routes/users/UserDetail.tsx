import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useUserDetails } from '../../api/users';
import { useGenreUserStats, useUserLastPlayed } from '../../api/stats';
import { Panel } from '../../components/Panel';
import { Avatar } from '../../components/media';
import { Tabs } from '../../components/inputs';
import { GlobalStats } from '../../components/stats/GlobalStats';
import { GenreRadars } from '../../components/stats/GenreRadar';
import { LastPlayedGrid } from '../../components/stats/LastPlayedGrid';
import { ActivityTable } from '../../components/activity/ActivityTable';
import { TimelineView } from '../timeline/TimelineView';

type Tab = 'overview' | 'activity' | 'timeline';

/** One user's page; a viewer's own page passes their id (`ownUserId`) instead of reading it from the address. */
export default function UserDetail({ ownUserId }: { ownUserId?: string }) {
  const { t } = useTranslation();
  const params = useParams();
  const userId = ownUserId ?? params.userId ?? '';
  const user = useUserDetails(userId);
  const genres = useGenreUserStats(userId);
  const lastPlayed = useUserLastPlayed(userId);
  const [tab, setTab] = useState<Tab>('overview');
  const name = user.data?.Name ?? user.data?.UserName ?? '';
  return (
    <div>
      <Panel isLoading={user.isLoading} error={user.error} isEmpty={!user.data} empty="users.empty">
        <div className="mb-4 flex items-center gap-3">
          <Avatar userId={userId} hasImage={Boolean(user.data?.PrimaryImageTag)} name={name} size="h-14 w-14" />
          <h1 className="text-2xl font-semibold text-white">{name}</h1>
          <Link className="btn-secondary ml-auto" to={`/year-in-review?user=${encodeURIComponent(userId)}`}>
            {t('yearReview.open')}
          </Link>
        </div>
      </Panel>
      <Tabs
        label={t('users.tabs.label')}
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'overview', label: t('common.tabs.overview') },
          { id: 'activity', label: t('common.tabs.activity') },
          { id: 'timeline', label: t('common.tabs.timeline') },
        ]}
      />
      {tab === 'overview' && (
        <>
          <GlobalStats scope={{ userid: userId }} />
          <GenreRadars query={genres} />
          <LastPlayedGrid query={lastPlayed} />
        </>
      )}
      {tab === 'activity' && <ActivityTable scope={{ kind: 'user', id: userId }} />}
      {tab === 'timeline' && <TimelineView fixedUserId={userId} />}
    </div>
  );
}
