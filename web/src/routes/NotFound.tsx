import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="py-12 text-center">
      <h1 className="page-title">{t('common.notFound')}</h1>
      <Link to="/" className="link">
        {t('nav.home')}
      </Link>
    </div>
  );
}
