/**
 * Checks the statistics invariant (`npm run check:rollups`): recomputes the quarter-hour, daily and all-time
 * rollups from playback_history and prints every difference with the stored ones. Exit code 0 when there is
 * none, 1 when there are differences (2 on an error). Reads only.
 *
 * Database: --database-url, else DATABASE_URL, else the embedded PostgreSQL under --data-dir (default ./data,
 * where `npm start` keeps it; stop Reelstat first, or pass the running server's URL).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../src/config/load-config.js';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { openDatabase } from '../src/db/database.js';
import { findRollupDifferences } from '../src/history/rollup-invariant.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'database-url': { type: 'string' }, 'data-dir': { type: 'string' } } });
  const config = loadConfig();
  const logger = pino({ level: 'warn' });
  let embedded: EmbeddedPostgres | undefined;
  let url = values['database-url'] ?? config.databaseUrl;
  if (!url) {
    embedded = new EmbeddedPostgres(path.join(path.resolve(values['data-dir'] ?? config.dataDir), 'postgres'), logger);
    url = await embedded.start();
  }
  const db = openDatabase(url, logger, { poolMax: 1 });
  try {
    const differences = await findRollupDifferences(db);
    for (const d of differences) {
      console.log(
        `${d.level} ${d.serverId} ${d.key}: history says ${d.expectedPlays} plays / ${d.expectedSeconds} s, ` +
          `rollups hold ${d.storedPlays} plays / ${d.storedSeconds} s`,
      );
    }
    console.log(differences.length === 0 ? 'rollups: 0 differences' : `rollups: ${differences.length} differences`);
    return differences.length === 0 ? 0 : 1;
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`check:rollups: ${(error as Error).message}`);
    process.exit(2);
  },
);
