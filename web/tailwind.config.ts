import type { Config } from 'tailwindcss';

// Tremor's chart colours are built at runtime from these names: only they are safelisted (not Tremor's full
// palette), everything else is purged by scanning our sources and Tremor's own components.
const chartColors = ['blue', 'emerald', 'amber', 'violet', 'rose', 'cyan', 'indigo', 'fuchsia', 'lime', 'orange'];

export default {
  darkMode: 'class',
  content: ['./index.html', './src/**/*.{ts,tsx}', '../node_modules/@tremor/react/dist/**/*.js'],
  theme: {
    transparent: 'transparent',
    current: 'currentColor',
    extend: {
      colors: {
        tremor: {
          brand: { faint: '#0B1229', muted: '#172554', subtle: '#1e40af', DEFAULT: '#3b82f6', emphasis: '#60a5fa', inverted: '#030712' },
          background: { muted: '#131A2B', subtle: '#1f2937', DEFAULT: '#111827', emphasis: '#d1d5db' },
          border: { DEFAULT: '#1f2937' },
          ring: { DEFAULT: '#1f2937' },
          content: { subtle: '#4b5563', DEFAULT: '#6b7280', emphasis: '#e5e7eb', strong: '#f9fafb', inverted: '#000000' },
        },
        'dark-tremor': {
          brand: { faint: '#0B1229', muted: '#172554', subtle: '#1e40af', DEFAULT: '#3b82f6', emphasis: '#60a5fa', inverted: '#030712' },
          background: { muted: '#131A2B', subtle: '#1f2937', DEFAULT: '#111827', emphasis: '#d1d5db' },
          border: { DEFAULT: '#1f2937' },
          ring: { DEFAULT: '#1f2937' },
          content: { subtle: '#4b5563', DEFAULT: '#6b7280', emphasis: '#e5e7eb', strong: '#f9fafb', inverted: '#000000' },
        },
      },
      boxShadow: {
        'tremor-input': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
        'tremor-card': '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
        'tremor-dropdown': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
        'dark-tremor-input': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
        'dark-tremor-card': '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
        'dark-tremor-dropdown': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
      },
      borderRadius: { 'tremor-small': '0.375rem', 'tremor-default': '0.5rem', 'tremor-full': '9999px' },
      fontSize: {
        'tremor-label': ['0.75rem', { lineHeight: '1rem' }],
        'tremor-default': ['0.875rem', { lineHeight: '1.25rem' }],
        'tremor-title': ['1.125rem', { lineHeight: '1.75rem' }],
        'tremor-metric': ['1.875rem', { lineHeight: '2.25rem' }],
      },
    },
  },
  safelist: chartColors.flatMap((color) => [
    `bg-${color}-500`,
    `text-${color}-500`,
    `fill-${color}-500`,
    `stroke-${color}-500`,
    `border-${color}-500`,
    `ring-${color}-500`,
  ]),
  plugins: [],
} satisfies Config;
