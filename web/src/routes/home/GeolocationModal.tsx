import { useTranslation } from 'react-i18next';
import { useGeolocation } from '../../api/geolocation';
import { Modal } from '../../components/Modal';
import { Panel } from '../../components/Panel';

/** Bounding box of about zoom 14 around a point, for OpenStreetMap's embed (no key needed). */
export function osmEmbedUrl(latitude: number, longitude: number): string {
  const dLon = 0.022;
  const dLat = 0.012;
  const bbox = [longitude - dLon, latitude - dLat, longitude + dLon, latitude + dLat].map((n) => n.toFixed(5)).join(',');
  return `https://www.openstreetmap.org/export/embed.html?bbox=${encodeURIComponent(bbox)}&layer=mapnik&marker=${latitude},${longitude}`;
}

export function GeolocationModal({ ip, onClose }: { ip: string; onClose: () => void }) {
  const { t } = useTranslation();
  const geo = useGeolocation(ip);
  const data = geo.data;
  const lat = data?.location?.latitude;
  const lon = data?.location?.longitude;
  return (
    <Modal title={t('home.geo.title', { ip })} onClose={onClose}>
      <Panel isLoading={geo.isLoading} error={geo.error}>
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <dt className="text-gray-400">{t('home.geo.city')}</dt>
          <dd>{data?.city?.names?.en ?? '-'}</dd>
          <dt className="text-gray-400">{t('home.geo.country')}</dt>
          <dd>{data?.country?.names?.en ?? '-'}</dd>
          <dt className="text-gray-400">{t('home.geo.postcode')}</dt>
          <dd>{data?.postal?.code ?? '-'}</dd>
          <dt className="text-gray-400">{t('home.geo.isp')}</dt>
          <dd>{data?.traits?.autonomous_system_organization ?? '-'}</dd>
        </dl>
        {lat !== undefined && lon !== undefined && (
          <iframe title={t('home.geo.map')} className="mt-3 h-64 w-full rounded border-0" src={osmEmbedUrl(lat, lon)} loading="lazy" />
        )}
      </Panel>
    </Modal>
  );
}
