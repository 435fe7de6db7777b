import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, SIM_API_KEY, startReelstat, startSimulator } from './stack.js';
import { publishE2E, simulatorChoice } from './env.js';

/** Builds the dashboard, starts the simulator and an unconfigured Reelstat; the returned function stops both. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(ROOT, 'web'),
    stdio: 'inherit',
  });
  const sim = await startSimulator({ scale: 'small', ...simulatorChoice() });
  const reelstat = await startReelstat().catch(async (error: unknown) => {
    await sim.stop();
    throw error;
  });
  publishE2E({ url: reelstat.url, simUrl: sim.url, simKey: SIM_API_KEY });
  return async () => {
    await reelstat.stop();
    await sim.stop();
  };
}
