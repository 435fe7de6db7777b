import { useTranslation } from 'react-i18next';
import { SessionsSection } from '../home/Sessions';

/** Test page for the session cards: the detail variant with JSON, play method, codecs and user link. */
export default function TestingSessions() {
  const { t } = useTranslation();
  return (
    <div>
      <h1 className="page-title">{t('testing.sessions')}</h1>
      <SessionsSection detail />
    </div>
  );
}
