// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders, fakeFetch } from '../../test/render';
import { SessionCard } from './SessionCard';
import { sessionsOfServer, visibleSessions } from './sessions-store';
import type { Session } from '../../api/types';

const NOW = Date.UTC(2026, 0, 1, 20, 0, 0);

function episodeSession(overrides: Partial<Session> = {}): Session {
  return {
    Id: 's2',
    ServerId: 'srv',
    UserId: 'u1',
    UserName: 'alice',
    Client: 'Jellyfin iOS',
    DeviceName: 'iPhone',
    ApplicationVersion: '1.6.0',
    RemoteEndPoint: '8.8.8.8',
    PlayState: {
      PositionTicks: 10 * 60 * 10_000_000,
      IsPaused: false,
      PlayMethod: 'Transcode',
      AudioStreamIndex: 1,
      SubtitleStreamIndex: 2,
    },
    TranscodingInfo: {
      Container: 'ts',
      IsVideoDirect: false,
      IsAudioDirect: true,
      VideoCodec: 'h264',
      Height: 720,
      Bitrate: 4_000_000,
      AudioBitrate: 192_000,
    },
    NowPlayingItem: {
      Id: 'e1',
      SeriesId: 'series1',
      SeriesName: 'Dark',
      Name: 'Secrets',
      Type: 'Episode',
      Container: 'mkv',
      RunTimeTicks: 40 * 60 * 10_000_000,
      ParentIndexNumber: 1,
      IndexNumber: 3,
      MediaStreams: [
        { Type: 'Video', Codec: 'hevc', Height: 2160, Width: 3840, BitRate: 20_000_000, Index: 0 },
        { Type: 'Audio', Codec: 'eac3', DisplayTitle: 'English EAC3 5.1', BitRate: 640_000, Index: 1 },
        { Type: 'Subtitle', Codec: 'srt', DisplayTitle: 'English SRT', Index: 2 },
      ],
    },
    ...overrides,
  };
}

describe('session card', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fakeFetch({}));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows every field with the title rule, the device icon, progress and ETA', () => {
    renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled={false} now={NOW} />);
    const card = screen.getByTestId('session-card');
    expect(within(card).getByTestId('session-title').textContent).toBe('Dark - Secrets');
    expect(within(card).getByText('S1 - E3')).toBeTruthy();
    expect(card.querySelector('[data-icon]')?.getAttribute('data-icon')).toBe('apple');
    expect(within(card).getByText('Jellyfin iOS 1.6.0')).toBeTruthy();
    expect(within(card).getByText('TS')).toBeTruthy();
    expect(within(card).getByText('720p H264 (transcode)')).toBeTruthy();
    expect(within(card).getByText('4.0 Mbps')).toBeTruthy();
    expect(within(card).getByText('English EAC3 5.1')).toBeTruthy();
    expect(within(card).getByText('192 Kbps')).toBeTruthy();
    expect(within(card).getByText('English SRT')).toBeTruthy();
    expect(within(card).getByText('10:00 / 40:00')).toBeTruthy();
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(within(card).getByLabelText('Playing')).toBeTruthy();
    const eta = new Date(NOW + 30 * 60_000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
    expect(within(card).getByText(eta)).toBeTruthy();
  });

  it('links a public IP to the geolocation modal only when geolocation is configured', () => {
    const { unmount } = renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled={false} now={NOW} />);
    expect(screen.queryByRole('button', { name: '8.8.8.8' })).toBeNull();
    unmount();
    renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled now={NOW} />);
    fireEvent.click(screen.getByRole('button', { name: '8.8.8.8' }));
    expect(screen.getByRole('dialog', { name: 'Location of 8.8.8.8' })).toBeTruthy();
  });

  it("offers an administrator to end the session and link the title; a viewer's own card neither", () => {
    const { unmount } = renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled={false} now={NOW} />);
    expect(screen.getByRole('button', { name: 'End session' })).toBeTruthy();
    expect(within(screen.getByTestId('session-title')).getByRole('link')).toBeTruthy();
    unmount();
    renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled={false} now={NOW} forViewer />);
    expect(screen.queryByRole('button', { name: 'End session' })).toBeNull();
    expect(within(screen.getByTestId('session-title')).queryByRole('link')).toBeNull();
  });

  it('names its media server once several are linked, and nothing otherwise', () => {
    const { unmount } = renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled={false} now={NOW} />);
    expect(screen.queryByTestId('session-server')).toBeNull();
    unmount();
    renderWithProviders(<SessionCard session={episodeSession()} geolocationEnabled={false} now={NOW} serverName="Den Emby" />);
    expect(screen.getByTestId('session-server').textContent).toBe('Den Emby');
  });

  it("keeps the selected server's sessions, every server's for All servers", () => {
    const sessions = [episodeSession({ Id: 'a', ServerId: 'one' }), episodeSession({ Id: 'b', ServerId: 'two' })];
    expect(sessionsOfServer(sessions, 'two').map((s) => s.Id)).toEqual(['b']);
    expect(sessionsOfServer(sessions, 'all').map((s) => s.Id)).toEqual(['a', 'b']);
    expect(sessionsOfServer(sessions, undefined).map((s) => s.Id)).toEqual(['a', 'b']);
  });

  it('never links a private IP', () => {
    renderWithProviders(<SessionCard session={episodeSession({ RemoteEndPoint: '192.168.1.20' })} geolocationEnabled now={NOW} />);
    expect(screen.queryByRole('button', { name: '192.168.1.20' })).toBeNull();
    expect(screen.getByTestId('session-ip').textContent).toBe('192.168.1.20');
  });

  it('shows the artist for audio, and the pause icon', () => {
    const session = episodeSession({
      PlayState: { IsPaused: true, PlayMethod: 'DirectPlay', PositionTicks: 0 },
      TranscodingInfo: undefined,
      Client: 'Jellyfin Web',
      DeviceName: 'Firefox',
      NowPlayingItem: { Id: 'a1', Name: 'Song', Type: 'Audio', Artists: ['Band'], RunTimeTicks: 1000, MediaStreams: [] },
    });
    renderWithProviders(<SessionCard session={session} geolocationEnabled={false} now={NOW} />);
    expect(screen.getByTestId('session-title').textContent).toBe('Song');
    expect(screen.getByText('Band')).toBeTruthy();
    expect(screen.getByLabelText('Paused')).toBeTruthy();
    expect(document.querySelector('[data-icon]')?.getAttribute('data-icon')).toBe('firefox');
  });

  it('the detail variant has a JSON toggle, play method, codecs and a user link', () => {
    renderWithProviders(<SessionCard session={episodeSession()} detail geolocationEnabled={false} now={NOW} />);
    expect(screen.getByText('Transcode')).toBeTruthy();
    expect(screen.getByText('hevc / eac3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'alice' }).getAttribute('href')).toBe('/users/u1');
    fireEvent.click(screen.getByRole('button', { name: 'Show JSON' }));
    expect(screen.getByText(/"SeriesName": "Dark"/)).toBeTruthy();
  });

  it('shows only sessions with a now-playing item, sorted by Id', () => {
    const a = episodeSession({ Id: 'b' });
    const b = episodeSession({ Id: 'a' });
    const idle = { ...episodeSession({ Id: 'c' }), NowPlayingItem: undefined } as unknown as Session;
    expect(visibleSessions([a, idle, b]).map((s) => s.Id)).toEqual(['a', 'b']);
  });
});
