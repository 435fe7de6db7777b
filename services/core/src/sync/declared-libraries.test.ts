import { describe, expect, it } from 'vitest';
import { declaredTracking } from './declared-libraries.js';

const movies = { id: 'lib-movies', name: 'Movies' };
const music = { id: 'lib-music', name: 'Music' };

describe('library tracking declared by a MediaStatsServer', () => {
  it('says nothing without lists (the Library settings screen decides)', () => {
    expect(declaredTracking(undefined, movies)).toBeUndefined();
    expect(declaredTracking({ trackedLibraries: null, untrackedLibraries: null }, movies)).toBeUndefined();
    expect(declaredTracking({ trackedLibraries: [] }, movies)).toBeUndefined();
  });

  it('tracks exactly the listed libraries, by id or by name', () => {
    expect(declaredTracking({ trackedLibraries: ['lib-movies'] }, movies)).toBe(true);
    expect(declaredTracking({ trackedLibraries: ['lib-movies'] }, music)).toBe(false);
    expect(declaredTracking({ trackedLibraries: ['Music'] }, music)).toBe(true);
  });

  it('never tracks an untracked library, and leaves the others to the screen', () => {
    expect(declaredTracking({ untrackedLibraries: ['Music'] }, music)).toBe(false);
    expect(declaredTracking({ untrackedLibraries: ['Music'] }, movies)).toBeUndefined();
    expect(declaredTracking({ trackedLibraries: ['Music'], untrackedLibraries: ['Music'] }, music)).toBe(false);
  });
});
