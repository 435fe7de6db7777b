import { describe, expect, it } from 'vitest';
import { deviceIcon, isPublicIp, playbackEta, progressPercent, sessionTitle } from './sessions';

describe('device icon', () => {
  it('shows the iOS mobile client on an iPhone as apple', () => {
    expect(deviceIcon('Jellyfin iOS', 'iPhone')).toBe('apple');
    expect(deviceIcon('Jellyfin Mobile (iOS)', "Ann's iPhone 15")).toBe('apple');
  });
  it('shows the iOS client on an iPad as ios', () => {
    expect(deviceIcon('Jellyfin iOS', 'iPad Pro')).toBe('ios');
  });
  it('matches web clients on the device name (the browser)', () => {
    expect(deviceIcon('Jellyfin Web', 'Chrome')).toBe('chrome');
    expect(deviceIcon('Jellyfin Web', 'Firefox')).toBe('firefox');
    expect(deviceIcon('Jellyfin Web', 'Safari')).toBe('safari');
    expect(deviceIcon('Jellyfin Web', 'Edge Chromium')).toBe('edge');
    expect(deviceIcon('Jellyfin Web', 'Opera')).toBe('opera');
    expect(deviceIcon('Emby Web', 'Vivaldi')).toBe('other');
  });
  it('shows android clients as android', () => {
    expect(deviceIcon('Jellyfin Android', 'Pixel 8')).toBe('android');
    expect(deviceIcon('Findroid', 'Android TV')).toBe('android');
  });
  it('falls back to other', () => {
    expect(deviceIcon('Kodi', 'Living room')).toBe('other');
    expect(deviceIcon(null, null)).toBe('other');
  });
});

describe('title rule', () => {
  it('is "series - episode" with S/E for episodes', () => {
    expect(sessionTitle({ Type: 'Episode', SeriesName: 'Dark', Name: 'Secrets', ParentIndexNumber: 1, IndexNumber: 1 })).toEqual({
      title: 'Dark - Secrets',
      subtitle: 'S1 - E1',
    });
  });
  it('shows the artists for audio', () => {
    expect(sessionTitle({ Type: 'Audio', Name: 'Song', Artists: ['A', 'B'] })).toEqual({ title: 'Song', subtitle: 'A, B' });
    expect(sessionTitle({ Type: 'Audio', Name: 'Song', Artists: [] })).toEqual({ title: 'Song', subtitle: null });
  });
  it('is the name for movies', () => {
    expect(sessionTitle({ Type: 'Movie', Name: 'Heat' })).toEqual({ title: 'Heat', subtitle: null });
  });
});

describe('public IP rule', () => {
  it.each([
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['172.15.0.1', true],
    ['192.168.1.10', false],
    ['127.0.0.1', false],
    ['8.8.8.8', true],
    ['::ffff:10.0.0.1', false],
    ['2001:db8::1', true],
    ['', false],
  ])('%s public: %s', (ip, expected) => {
    expect(isPublicIp(ip)).toBe(expected);
  });
});

describe('ETA and progress', () => {
  it('ends now plus the remaining runtime', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const eta = playbackEta(now, 10 * 60 * 10_000_000, 40 * 60 * 10_000_000);
    expect(eta?.toISOString()).toBe('2026-01-01T12:30:00.000Z');
    expect(playbackEta(now, 0, 0)).toBeNull();
  });
  it('is a bounded percentage', () => {
    expect(progressPercent(25, 100)).toBe(25);
    expect(progressPercent(200, 100)).toBe(100);
    expect(progressPercent(10, 0)).toBe(0);
  });
});
