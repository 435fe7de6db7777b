// `npm run demo`: a live dashboard in a minute. Starts the Jellyfin simulator with live viewing traffic and a
// Reelstat linked to it through the GitOps variables (administrator and media server from the environment),
// builds the dashboard when needed, starts a full sync, and prints the URL and the login. Ctrl-C stops both.
// Options: --port 3000 (Reelstat), --sim-port 8096, --traffic low|high, --scale tiny|small.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, SIM_API_KEY, freePort, startReelstat, startSimulator } from '../web/e2e/stack.js';
import { demoLogin, signIn } from './demo-login.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    'sim-port': { type: 'string' },
    traffic: { type: 'string', default: 'low' },
    scale: { type: 'string', default: 'small' },
  },
});

function log(message: string) {
  process.stdout.write(`[demo] ${message}\n`);
}

if (!existsSync(path.join(ROOT, 'web/dist/index.html'))) {
  log('building the dashboard (web/dist)…');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(ROOT, 'web'),
    stdio: 'inherit',
  });
}

log(`starting the simulator (scale ${values.scale}, traffic ${values.traffic})…`);
const sim = await startSimulator({
  scale: values.scale,
  traffic: values.traffic,
  port: values['sim-port'] ? Number(values['sim-port']) : await freePort(),
});
log(`starting Reelstat (embedded PostgreSQL in a fresh data directory)…`);
const reelstat = await startReelstat(
  {
    ADMIN_USERNAME: demoLogin.username,
    ADMIN_PASSWORD: demoLogin.password,
    MEDIA_SERVER_URL: sim.url,
    MEDIA_SERVER_API_KEY: SIM_API_KEY,
    LOG_LEVEL: 'warn',
  },
  Number(values.port),
).catch(async (error: unknown) => {
  await sim.stop();
  throw error;
});

try {
  const token = await signIn(reelstat.url);
  await fetch(new URL('/sync/beginSync', reelstat.url), { headers: { Authorization: `Bearer ${token}` } });
} catch (error) {
  await reelstat.stop();
  await sim.stop();
  throw error;
}

process.stdout.write(`
  Reelstat is running: ${reelstat.url}
  Log in with          ${demoLogin.username} / ${demoLogin.password}
  Media server         ${sim.url} (simulated Jellyfin, live viewing traffic: ${values.traffic})

  A full sync has started; sessions appear on Home as the simulated users watch. Ctrl-C stops everything.
`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await reelstat.stop();
  await sim.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
