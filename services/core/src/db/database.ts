import pg from 'pg';
import { Sequelize, QueryTypes, type Transaction } from 'sequelize';
import type { Logger } from '../logging/logger.js';

// BIGINT counters (sizes, ticks, sums) fit comfortably in a double for our ranges; return them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export interface Database {
  sequelize: Sequelize;
  /** Hand-written SQL with bound parameters ($1, $2 … or $name). Returns rows. */
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    bind?: unknown[] | Record<string, unknown>,
    transaction?: Transaction,
  ): Promise<Row[]>;
  /**
   * A read of many rows, returned as the driver parses them: Sequelize's query copies every row into a new object
   * (an all-time day chart's 5,481 input rows at 5 M plays: about 2 ms of the statement's 12–22, docs/performance.md).
   * Same pool and session settings; pg's errors as they are. Positional binds only.
   */
  rows<Row extends object = Record<string, unknown>>(sql: string, bind?: unknown[]): Promise<Row[]>;
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
  url: string;
}

/**
 * A pooled connection is closed after this long unused. A person reading the dashboard pauses longer than the
 * driver's default 10 s, and a new connection costs a login and a backend whose caches are cold: the statistics
 * page's ten calls after 12 s without requests took 105–111 ms with 10 s, 65–81 ms with 5 min (5 M plays,
 * docs/performance.md "Connections kept between a person's clicks").
 */
const POOL_IDLE_MS = 300_000;

/**
 * PostgreSQL's JIT compilation off for the pooled connections: the statistics' statements are many small steps
 * whose cost estimates run into the millions (a LATERAL read of the history that usually reads nothing), so a
 * server built with LLVM (Debian's and the official images' PostgreSQL; not the embedded one) compiled each of
 * them: 1.2 s of JIT for an all-time day chart of 40 ms at 5 M plays on PostgreSQL 15 with default settings
 * (docs/performance.md, "JIT off"). A startup option, as statement_timeout: no round trip per connection.
 */
const SESSION_OPTIONS = '-c jit=off';

export function openDatabase(url: string, logger: Logger, options: { poolMax?: number; applicationName?: string } = {}): Database {
  const sequelize = new Sequelize(url, {
    dialect: 'postgres',
    dialectModule: pg,
    logging: (sql, timing) => logger.trace({ component: 'sql', ms: timing }, sql),
    benchmark: true,
    pool: { max: options.poolMax ?? 10, min: 0, idle: POOL_IDLE_MS, acquire: 30_000 },
    dialectOptions: { application_name: options.applicationName ?? 'reelstat', statement_timeout: 60_000, options: SESSION_OPTIONS },
    define: { underscored: true, timestamps: false, freezeTableName: true },
  });
  return {
    sequelize,
    url,
    async query<Row extends object>(sql: string, bind?: unknown[] | Record<string, unknown>, transaction?: Transaction) {
      return sequelize.query<Row>(sql, { bind: bind as never, type: QueryTypes.SELECT, transaction: transaction ?? null, raw: true });
    },
    async rows<Row extends object>(sql: string, bind: unknown[] = []) {
      const pool = sequelize.connectionManager;
      const connection = (await pool.getConnection({ type: 'read' })) as pg.Client;
      const started = performance.now();
      try {
        return (await connection.query<Row>(sql, bind)).rows;
      } finally {
        logger.trace({ component: 'sql', ms: Math.round(performance.now() - started) }, sql);
        pool.releaseConnection(connection);
      }
    },
    async isReachable() {
      try {
        await sequelize.query('SELECT 1', { type: QueryTypes.SELECT });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await sequelize.close();
    },
  };
}

/** Waits for a database that may still be starting (a Kubernetes pod often starts before its database). */
export async function waitForDatabase(db: Database, logger: Logger, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 250;
  for (;;) {
    try {
      await db.sequelize.authenticate({ logging: false });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`database not reachable after ${timeoutMs} ms: ${(error as Error).message}`);
      logger.warn({ err: (error as Error).message }, 'database not reachable yet, retrying');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}
