// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { clearSession, STORAGE, usePreference } from './preferences';

function Libraries() {
  const [ids, setIds] = usePreference<string[]>(STORAGE.timelineLibraries, []);
  return (
    <button type="button" onClick={() => setIds([...ids, `l${ids.length + 1}`])}>
      {ids.join(',') || 'none'}
    </button>
  );
}

describe('preferences', () => {
  beforeEach(() => {
    clearSession();
    localStorage.clear();
  });
  afterEach(() => cleanup());

  it('reads a stored array once and keeps its reference stable (no render loop)', () => {
    localStorage.setItem(STORAGE.timelineLibraries, JSON.stringify(['a', 'b']));
    render(<Libraries />);
    expect(screen.getByRole('button').textContent).toBe('a,b');
  });

  it('mirrors changes to localStorage under the SPEC key', () => {
    render(<Libraries />);
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button').textContent).toBe('l1');
    expect(localStorage.getItem('PREF_TIMELINE_LIBRARIES')).toBe('["l1"]');
  });

  it('logout clears token, config and every PREF_ key, and nothing else', () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('config', '{}');
    localStorage.setItem('PREF_HOME_STAT_DAYS', '7');
    localStorage.setItem('PREF_SETTINGS_LAST_SELECTED_TAB', 'keys');
    localStorage.setItem('i18nextLng', 'fr-FR');
    localStorage.setItem('12hr', 'true');
    clearSession();
    expect(Object.keys(localStorage).sort()).toEqual(['12hr', 'i18nextLng']);
  });
});
