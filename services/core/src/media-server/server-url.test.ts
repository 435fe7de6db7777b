import { describe, expect, it } from 'vitest';
import { canonicalMediaServerId, isMediaServerId } from './ids.js';
import { MediaServerError } from './media-server-error.js';
import { normalizeServerUrl, withEmbyPrefix, withoutEmbyPrefix } from './server-url.js';

describe('server URL', () => {
  it.each([
    ['http://192.168.1.10:8096', 'http://192.168.1.10:8096'],
    ['http://192.168.1.10:8096///', 'http://192.168.1.10:8096'],
    ['  https://media.example.org/jellyfin/  ', 'https://media.example.org/jellyfin'],
    ['jellyfin.lan:8096', 'http://jellyfin.lan:8096'],
    ['http://host:8096/emby/?x=1#top', 'http://host:8096/emby'],
    ['http://[::1]:8096/', 'http://[::1]:8096'],
  ])('%s → %s', (raw, normalized) => {
    expect(normalizeServerUrl(raw)).toBe(normalized);
  });

  it.each([[''], ['ftp://host/'], ['http://user:pw@host:8096'], ['http://exa mple:99999']])('refuses %j', (raw) => {
    let error: unknown;
    try {
      normalizeServerUrl(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MediaServerError);
    expect((error as MediaServerError).kind).toBe('invalid_request');
    expect((error as MediaServerError).message).not.toContain('pw');
  });

  it('adds and removes the /emby prefix once', () => {
    expect(withEmbyPrefix('http://h:8096')).toBe('http://h:8096/emby');
    expect(withEmbyPrefix('http://h:8096/Emby')).toBe('http://h:8096/Emby');
    expect(withEmbyPrefix('http://h/media')).toBe('http://h/media/emby');
    expect(withoutEmbyPrefix('http://h:8096/emby')).toBe('http://h:8096');
    expect(withoutEmbyPrefix('http://h:8096/embyserver')).toBe('http://h:8096/embyserver');
  });
});

describe('ids', () => {
  it('accepts Jellyfin GUIDs and Emby numbers, canonically', () => {
    expect(canonicalMediaServerId('0123456789ABCDEF0123456789abcdef')).toBe('0123456789abcdef0123456789abcdef');
    expect(canonicalMediaServerId('01234567-89ab-cdef-0123-456789abcdef')).toBe('0123456789abcdef0123456789abcdef');
    expect(canonicalMediaServerId('212')).toBe('212');
  });

  it.each(['', 'abc', '../Users', '12a', '0123456789abcdef0123456789abcdeg', '1'.repeat(20), '212/Images', '%2e%2e'])(
    'refuses %j',
    (id) => {
      expect(isMediaServerId(id)).toBe(false);
      expect(() => canonicalMediaServerId(id)).toThrow(MediaServerError);
    },
  );
});
