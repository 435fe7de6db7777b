import { useTranslation } from 'react-i18next';
import { itemImage, userImage } from '../api/images';
import { useAuthImage } from '../api/use-image';

/** Poster, or the 'Archived' marker for archived items (SPEC.md §4), or a neutral box with the name when there is no image. */
export function Poster({
  id,
  archived,
  alt,
  className = 'h-36 w-24',
}: {
  id?: string | null;
  archived?: boolean | null;
  alt: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const src = useAuthImage(!archived && id ? itemImage(id) : null);
  if (archived || !src)
    return (
      <div
        className={`flex shrink-0 items-center justify-center overflow-hidden rounded bg-gradient-to-br from-gray-800 to-gray-900 p-2 text-center text-xs text-gray-400 ${className}`}
        data-testid={archived ? 'archived-marker' : undefined}
      >
        {archived ? (
          <span className="badge bg-gray-700 text-gray-200">{t('common.archived')}</span>
        ) : src === null ? (
          <span className="line-clamp-3 opacity-70">{alt}</span>
        ) : null}
      </div>
    );
  return <img src={src} alt={alt} className={`shrink-0 rounded bg-gray-800 object-cover ${className}`} />;
}

export function Avatar({
  userId,
  hasImage = true,
  name,
  size = 'h-8 w-8',
}: {
  userId?: string | null;
  hasImage?: boolean;
  name: string;
  size?: string;
}) {
  const src = useAuthImage(userId && hasImage ? userImage(userId) : null);
  if (!src)
    return (
      <span className={`inline-flex shrink-0 items-center justify-center rounded-full bg-gray-700 text-gray-300 ${size}`} aria-hidden>
        <svg viewBox="0 0 24 24" className="h-1/2 w-1/2" fill="currentColor">
          <path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5Z" />
        </svg>
      </span>
    );
  return <img src={src} alt={name} className={`shrink-0 rounded-full object-cover ${size}`} />;
}
