import { describe, expect, it } from 'vitest';
import type { LiveSession } from '@reelstat/contract';
import { eventForViewer } from './viewer-events.js';

const session = (id: string, serverId: string, userId: string | undefined) =>
  ({ Id: id, ServerId: serverId, UserId: userId }) as LiveSession;
const vera = { serverId: 'srv-1', userId: 'abcdef0123456789abcdef0123456789' };

describe('eventForViewer', () => {
  it("keeps a viewer's own sessions on their server, whatever the id's dashes or case", () => {
    const sessions = [
      session('1', 'srv-1', 'ABCDEF01-2345-6789-ABCD-EF0123456789'),
      session('2', 'srv-1', 'someone-else'),
      session('3', 'srv-2', vera.userId),
      session('4', 'srv-1', undefined),
    ];
    expect(eventForViewer('sessions', sessions, vera)).toEqual([sessions[0]]);
  });

  it('gives a viewer linked to no media-server user an empty list, and a bad payload nothing', () => {
    expect(eventForViewer('sessions', [session('1', 'srv-1', vera.userId)], undefined)).toEqual([]);
    expect(eventForViewer('sessions', { not: 'a list' }, vera)).toBeUndefined();
  });

  it('passes history events naming the viewer, reduced to their id, and drops the rest', () => {
    const change = { serverId: 'srv-1', userIds: [vera.userId, 'other'], libraryIds: ['l'], itemIds: ['i'] };
    expect(eventForViewer('history', change, vera)).toEqual({ serverId: 'srv-1', userIds: [vera.userId], libraryIds: [], itemIds: [] });
    expect(eventForViewer('history', { ...change, userIds: ['other'] }, vera)).toBeUndefined();
    expect(eventForViewer('history', { ...change, serverId: 'srv-2' }, vera)).toBeUndefined();
    expect(eventForViewer('history', change, undefined)).toBeUndefined();
    expect(eventForViewer('history', null, vera)).toBeUndefined();
  });

  it('drops every other event, known or not', () => {
    for (const event of ['task-list', 'FullSyncTask', 'backup-restore', 'something-new'])
      expect(eventForViewer(event, { any: 'thing' }, vera)).toBeUndefined();
  });
});
