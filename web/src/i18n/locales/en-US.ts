import { enUK, type Locale } from './en-UK';

/** American English: en-UK with US spelling and wording where they differ. */
export const enUS: Locale = {
  ...enUK,
  home: {
    ...enUK.home,
    geo: { ...enUK.home.geo, postcode: 'ZIP code' },
    recent: { ...enUK.home.recent, empty: 'Nothing was added recently' },
  },
  settings: {
    ...enUK.settings,
    general: { ...enUK.settings.general, h24: '24-hour', h12: '12-hour (AM/PM)' },
  },
  purge: { ...enUK.purge, explain: 'Remove this from Reelstat. Playback activity can be kept or removed along with it.' },
  common: { ...enUK.common, cancel: 'Cancel', pageSize: 'Rows per page' },
};
