// Ending a live session over HTTP, against the simulator speaking Jellyfin and Emby: the viewer's client gets
// the message, then the play stops on the media server; a gone session, a bad id and a down server are clear errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe.each(['jellyfin', 'emby'] as const)('ending a session on %s', (flavor) => {
  let sim: RunningSimulator;
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 21, flavor });
    harness = await startApiHarness();
    token = await createAdmin(harness);
    const linked = await harness.call('POST', '/auth/configSetup', { body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey }, token });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await harness.stop();
    await sim.stop();
  });

  const end = (body: unknown) => harness.call('POST', '/api/endSession', { body, token });
  const startPlay = () => {
    const [movie] = sim.control.itemIds('Movie', 1);
    const [user] = sim.control.users();
    return sim.control.startPlay({ itemId: movie!, userId: user!.id });
  };

  it('shows the message on the client, then stops the play', async () => {
    const play = startPlay();
    expect(sim.control.play(play.playId)?.active).toBe(true);
    const answer = await end({ sessionId: play.sessionId, message: 'Server maintenance in 5 minutes, sorry!' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ message: expect.stringMatching(/^Session ended on /) as unknown });
    expect(sim.control.messages()).toContainEqual(
      expect.objectContaining({
        sessionId: play.sessionId,
        header: 'Playback stopped',
        text: 'Server maintenance in 5 minutes, sorry!',
        timeoutMs: 10_000,
      }),
    );
    const stopped = sim.control.play(play.playId);
    expect(stopped?.active).toBe(false);
    expect(stopped?.endReason).toBe('stopped');
  });

  it('stops without a message when none is given', async () => {
    const before = sim.control.messages().length;
    const play = startPlay();
    expect((await end({ sessionId: play.sessionId })).status).toBe(200);
    expect(sim.control.play(play.playId)?.active).toBe(false);
    expect(sim.control.messages()).toHaveLength(before);
  });

  it('answers 404 for a session that is gone and 400 for an id that is not one', async () => {
    const gone = await end({ sessionId: 'a'.repeat(32) });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'session_not_found' });
    const bad = await end({ sessionId: '../../System/Restart' });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/body\.sessionId: must be a media-server session id/);
    const long = await end({ sessionId: 'a'.repeat(32), message: 'x'.repeat(501) });
    expect(long.status).toBe(400);
  });

  it('answers 503 when the media server is down, and the play goes on', async () => {
    const play = startPlay();
    await sim.control.setFaults({ down: '503' });
    try {
      const answer = await end({ sessionId: play.sessionId, message: 'bye' });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'media_server_failed' });
    } finally {
      await sim.control.clearFaults();
    }
    expect(sim.control.play(play.playId)?.active).toBe(true);
  });
});
