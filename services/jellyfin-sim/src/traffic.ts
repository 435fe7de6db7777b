/**
 * Random viewing driven by the simulator clock: in real-time mode it looks like a live server; on the virtual
 * clock it is fully deterministic for a seed. Every play goes through the same SessionManager as scripted ones.
 */
import { Rng } from './rng.js';
import type { TimerHandle } from './clock.js';
import type { ItemKind } from './library/types.js';
import type { PlayMethod } from './sessions/types.js';
import type { SimulatorState } from './sim.js';

export type TrafficLevel = 'off' | 'low' | 'high';

const TARGET: Record<TrafficLevel, number> = { off: 0, low: 3, high: 30 };
const TICK_MS = 15_000;

export class Traffic {
  private timer?: TimerHandle;
  private readonly rng: Rng;
  private pools = new Map<ItemKind, string[]>();
  private poolsVersion = -1;
  level: TrafficLevel = 'off';

  constructor(private readonly st: SimulatorState) {
    this.rng = new Rng(st.opts.seed).fork('traffic');
  }

  setLevel(level: TrafficLevel): void {
    this.level = level;
    this.st.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (level !== 'off') {
      this.tick();
    }
  }

  stop(): void {
    this.setLevel('off');
  }

  private pool(kind: ItemKind): string[] {
    if (this.poolsVersion !== this.st.store.version) {
      this.pools.clear();
      this.poolsVersion = this.st.store.version;
    }
    let p = this.pools.get(kind);
    if (!p) this.pools.set(kind, (p = [...(this.st.store.byKind.get(kind) ?? [])]));
    return p;
  }

  private tick(): void {
    const r = this.rng;
    const sm = this.st.sessions;
    for (const play of sm.activePlays()) {
      if (play.silent) continue;
      const id = play.record.playId;
      const x = r.next();
      try {
        if (play.paused) {
          if (x < 0.35) sm.resume(id);
          else if (x < 0.4) sm.stop(id);
        } else if (x < 0.04) sm.pause(id);
        else if (x < 0.055) sm.seek(id, play.anchorPositionTicks + r.int(-120, 300) * 10_000_000);
        else if (x < 0.07) sm.stop(id);
        else if (x < 0.074) sm.vanish(id, r.chance(0.5));
      } catch {
        // the play ended in between; nothing to do
      }
    }
    // Idle sessions come and go: some clients close (websocket gone) a while after their play ended.
    for (const session of [...sm.sessions.values()]) {
      if (!session.play && r.chance(0.15)) sm.removeSession(session.id);
    }
    const target = TARGET[this.level];
    const users = [...this.st.store.users.values()].filter((u) => !u.isDisabled);
    let active = sm.activePlays().length;
    while (active < target && users.length) {
      const kind = r.weighted<ItemKind>([
        ['Episode', 55],
        ['Movie', 30],
        ['Audio', 15],
      ]);
      const pool = this.pool(kind);
      if (!pool.length) break;
      const itemId = r.pick(pool);
      const method = r.weighted<PlayMethod>([
        ['DirectPlay', 55],
        ['DirectStream', 15],
        ['Transcode', 30],
      ]);
      try {
        const item = this.st.store.get(itemId);
        const user = r.pick(users);
        // People come back on the device they used before: reuse one of their idle sessions when there is one.
        const idle = [...sm.sessions.values()].filter((s) => s.userId === user.id && !s.play);
        sm.start({
          userId: user.id,
          sessionId: idle.length && r.chance(0.7) ? r.pick(idle).id : undefined,
          itemId,
          method,
          transcodeVideo: method === 'Transcode' && kind !== 'Audio' ? r.chance(0.7) : undefined,
          startPositionTicks: r.chance(0.3) && item?.runTimeTicks ? Math.floor(item.runTimeTicks * r.next() * 0.8) : 0,
        });
      } catch {
        break;
      }
      active++;
      if (r.chance(this.level === 'high' ? 0.15 : 0.5)) break; // ramp up gradually
    }
    if (r.chance(0.05)) sm.connect({ userId: r.pick(users).id }); // an idle client shows up now and then
    this.timer = this.st.clock.setTimer(TICK_MS, () => this.tick());
  }
}
