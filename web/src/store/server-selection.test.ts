import { describe, expect, it } from 'vitest';
import { serverIdFor } from './server-selection';

const den = '6f1c1a52-8f0e-4a8e-9a55-0d6f3c1f2b7e';

describe('the serverId a call carries', () => {
  it('carries none for the default server', () => {
    expect(serverIdFor('/stats/getMostViewedByType', null)).toBeUndefined();
  });

  it('names the selected server on every server-scoped call, not on the server list itself', () => {
    expect(serverIdFor('/stats/getMostViewedByType', den)).toBe(den);
    expect(serverIdFor('/api/getItemDetails', den)).toBe(den);
    expect(serverIdFor('/proxy/Items/Images/Primary', den)).toBe(den);
    expect(serverIdFor('/sync/fetchItem', den)).toBe(den);
    expect(serverIdFor('/api/mediaServers', den)).toBeUndefined();
    expect(serverIdFor('/auth/login', den)).toBeUndefined();
    expect(serverIdFor('/sync/beginSync', den)).toBeUndefined();
  });

  it('sends "all" only where the API sums servers; the other calls read the default server', () => {
    expect(serverIdFor('/api/getHistory', 'all')).toBe('all');
    expect(serverIdFor('/stats/getAllUserActivity', 'all')).toBe('all');
    expect(serverIdFor('/stats/getViewsByHour/', 'all')).toBe('all');
    expect(serverIdFor('/proxy/Items/Images/Primary', 'all')).toBe('all');
    expect(serverIdFor('/api/getUserDetails', 'all')).toBeUndefined();
    expect(serverIdFor('/stats/getUserLastPlayed', 'all')).toBeUndefined();
  });
});
