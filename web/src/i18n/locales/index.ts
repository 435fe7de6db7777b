import { enUK } from './en-UK';
import { enUS } from './en-US';
import { frFR } from './fr-FR';
import { zhCN } from './zh-CN';
import { itIT } from './it-IT';
import { caES } from './ca-ES';
import { deDE } from './de-DE';

export const LANGUAGES = ['en-UK', 'en-US', 'fr-FR', 'zh-CN', 'it-IT', 'ca-ES', 'de-DE'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en-UK';

export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-UK': 'English (UK)',
  'en-US': 'English (US)',
  'fr-FR': 'Français',
  'zh-CN': '中文（简体）',
  'it-IT': 'Italiano',
  'ca-ES': 'Català',
  'de-DE': 'Deutsch',
};

export const locales = { 'en-UK': enUK, 'en-US': enUS, 'fr-FR': frFR, 'zh-CN': zhCN, 'it-IT': itIT, 'ca-ES': caES, 'de-DE': deDE };

/**
 * i18next looks resources up under the canonical form of a code (Intl.getCanonicalLocales turns en-UK into en-GB),
 * while SPEC.md's codes, stored in i18nextLng, stay as they are: each language is registered under both.
 */
function canonical(code: string): string {
  try {
    return Intl.getCanonicalLocales(code)[0] ?? code;
  } catch {
    return code;
  }
}

export const resources = Object.fromEntries(
  LANGUAGES.flatMap((lng) => {
    const entry = { translation: locales[lng] };
    return canonical(lng) === lng
      ? [[lng, entry]]
      : [
          [lng, entry],
          [canonical(lng), entry],
        ];
  }),
);
