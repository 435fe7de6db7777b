import { useTranslation } from 'react-i18next';
import { TimelineView } from './TimelineView';

export default function Timeline() {
  const { t } = useTranslation();
  return (
    <div>
      <h1 className="page-title">{t('nav.timeline')}</h1>
      <TimelineView />
    </div>
  );
}
