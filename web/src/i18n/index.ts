import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE } from '../store/preferences';
import { resources, LANGUAGES, FALLBACK_LANGUAGE, type Language } from './locales';

function storedLanguage(): Language {
  const stored = localStorage.getItem(STORAGE.language);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : FALLBACK_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lng) => {
  localStorage.setItem(STORAGE.language, lng);
  document.documentElement.lang = lng;
});
document.documentElement.lang = i18n.language;

export { i18n };
