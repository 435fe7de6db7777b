/** `npm run sim -- [--port 8096] [--seed 1] [--scale tiny|small|large] [--api-key KEY] [--flavor jellyfin|emby] [--legacy-auth on|off] [--traffic off|low|high] [--blurhashes on|off]` */
import { startSimulator } from './index.js';
import type { SimulatorOptions } from './sim.js';

const USAGE =
  'usage: npm run sim -- [--port 8096] [--host 127.0.0.1] [--seed 1] [--scale tiny|small|large] [--api-key KEY] [--flavor jellyfin|emby] [--legacy-auth on|off] [--traffic off|low|high] [--blurhashes on|off]';

export function parseArgs(argv: string[]): SimulatorOptions {
  const o: SimulatorOptions = { port: 8096, clock: 'real' };
  const errors: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) errors.push(`${flag} needs a value`);
      return v ?? '';
    };
    const oneOf = <T extends string>(v: string, allowed: readonly T[]): T | undefined => {
      if ((allowed as readonly string[]).includes(v)) return v as T;
      errors.push(`${flag} must be one of ${allowed.join('|')}, got "${v}"`);
      return undefined;
    };
    switch (flag) {
      case '--port': {
        const v = Number(value());
        if (!Number.isInteger(v) || v < 0 || v > 65535) errors.push('--port must be 0-65535');
        o.port = v;
        break;
      }
      case '--host':
        o.host = value();
        break;
      case '--seed': {
        const v = Number(value());
        if (!Number.isInteger(v)) errors.push('--seed must be an integer');
        o.seed = v;
        break;
      }
      case '--scale':
        o.scale = oneOf(value(), ['tiny', 'small', 'large'] as const);
        break;
      case '--api-key':
        o.apiKey = value();
        break;
      case '--flavor':
        o.flavor = oneOf(value(), ['jellyfin', 'emby'] as const);
        break;
      case '--legacy-auth':
        o.legacyAuth = oneOf(value(), ['on', 'off'] as const) === 'on';
        break;
      case '--traffic':
        o.traffic = oneOf(value(), ['off', 'low', 'high'] as const);
        break;
      case '--blurhashes':
        o.blurHashes = oneOf(value(), ['on', 'off'] as const) === 'on';
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        errors.push(`unknown option ${arg}`);
    }
  }
  if (errors.length) {
    console.error(`${errors.join('\n')}\n${USAGE}`);
    process.exit(2);
  }
  return o;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const sim = await startSimulator(opts);
  const counts = sim.control.counts();
  const flavor = opts.flavor ?? 'jellyfin';
  console.log(
    `Reelstat ${flavor === 'emby' ? 'Emby' : 'Jellyfin'} simulator listening on ${sim.url}${flavor === 'emby' ? ' (clients use /emby)' : ''}`,
  );
  console.log(`API key: ${sim.apiKey}`);
  console.log(
    `seed ${opts.seed ?? 1}, scale ${opts.scale ?? 'tiny'}, legacy auth ${opts.legacyAuth === false ? 'off' : 'on'}, traffic ${opts.traffic ?? 'off'}, generated in ${Math.round(sim.generationMs)} ms`,
  );
  console.log(`counts: ${JSON.stringify(counts)}`);
  console.log(
    `(/Items?Recursive=true&Limit=0 → TotalRecordCount ${counts.items}; user passwords are "password"; control API under ${sim.url}/__control)`,
  );
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    sim.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
