/** Public entry point: start a simulated Jellyfin or Emby server. */
import { createControl, controlHttpHandler, type SimulatorControl } from './control.js';
import { SimHttpServer } from './http/server.js';
import { SimulatorState, type SimulatorOptions } from './sim.js';
import { Traffic } from './traffic.js';

export type { SimulatorOptions } from './sim.js';
export type { SimulatorControl, SessionSummary, UserPatch } from './control.js';
export type { PlayRecord, PlayMethod, EndReason } from './sessions/types.js';
export type { StartPlayOptions, ConnectOptions } from './sessions/manager.js';
export type { FaultSettings, DownMode } from './faults.js';
export type { ItemInput, ItemPatch, UserInput, SimCounts } from './sim.js';
export type { SimItem, SimUser, ItemKind, Scale } from './library/types.js';
export { CLIENTS } from './sessions/clients.js';
export { PRESETS } from './library/generate.js';
export { MOVIE_GENRES } from './library/words.js';

export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:41234 (Emby clients add /emby themselves). */
  url: string;
  apiKey: string;
  control: SimulatorControl;
  /** Generation time of the library in ms. */
  generationMs: number;
  stop(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const st = await SimulatorState.create(options);
  const holder: { control?: SimulatorControl } = {};
  const http = new SimHttpServer(
    st,
    controlHttpHandler(st, () => holder.control as SimulatorControl),
  );
  await http.listen(st.opts.port, st.opts.host);
  const hostForUrl = st.opts.host.includes(':') ? `[${st.opts.host}]` : st.opts.host;
  const url = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${http.port}`;
  st.baseUrl = url;
  const traffic = new Traffic(st);
  const control = createControl(st, http, traffic, st.opts.host);
  holder.control = control;
  if (st.opts.traffic !== 'off') traffic.setLevel(st.opts.traffic);
  let stopped = false;
  return {
    url,
    apiKey: st.opts.apiKey,
    control,
    generationMs: st.generationMs,
    async stop() {
      if (stopped) return;
      stopped = true;
      traffic.stop();
      st.clock.clearAll();
      await http.close();
      st.reporting.close();
    },
  };
}
