import type pg from 'pg';
import { deferredIndexesOf } from './deferred-indexes.js';
import { quoteIdent } from './table-columns.js';

/** Where a restore builds its new tables, beside the live ones. */
export const STAGING_SCHEMA = 'backup_staging';
/** Where the swap moves the tables it replaces, to drop them in the same transaction. */
const RETIRED_SCHEMA = 'backup_retired';

/**
 * What a live table has besides its columns, read from the catalog (so a table a later migration changes is
 * copied as it is now, not as this file remembers it). Definitions name every relation with its schema.
 */
interface TableShape {
  /** Primary key, unique and exclusion constraints (each builds its index). */
  keys: Array<{ name: string; definition: string }>;
  /** Foreign keys of this table: to a replaced table (built on the staging copy) or to a kept one. */
  foreignKeys: Array<{ name: string; definition: string; references: string }>;
  /** Indexes that back no constraint. */
  indexes: Array<{ name: string; definition: string }>;
  triggers: Array<{ name: string; definition: string }>;
  /** Sequences owned by a column (bigserial): they follow the column to the new table. */
  ownedSequences: Array<{ sequence: string; column: string }>;
  /** Foreign keys of kept tables that reference this one: moved onto the new table in the swap. */
  referencedBy: Array<{ table: string; name: string; definition: string }>;
}

const live = (table: string) => `public.${quoteIdent(table)}`;
/** How the catalog writes a qualified name (no quotes for plain names). */
const plain = (qualified: string) => qualified.replace(/"/g, '');
/** GIN indexes (the history's trigram search index): the longest single builds, so started first. */
const LONGEST = /\bUSING gin\b/;
const staged = (table: string) => `${STAGING_SCHEMA}.${quoteIdent(table)}`;

/** Replaces exactly one occurrence of `from` (a definition that does not name its table as expected is a bug). */
function retarget(definition: string, from: string, to: string): string {
  const at = definition.indexOf(from);
  if (at < 0 || definition.indexOf(from, at + 1) >= 0) throw new Error(`cannot retarget "${definition}" (looked for "${from}")`);
  return definition.slice(0, at) + to + definition.slice(at + from.length);
}

/**
 * The new tables of a restore: created empty beside the live ones (no indexes, so loading them is one append
 * per row), then given every key, index, foreign key and trigger of the live table, and swapped in by renames.
 */
export class StagingTables {
  private readonly shapes = new Map<string, TableShape>();

  /** `replaced`: every table the restore replaces, parents first. */
  constructor(
    private readonly client: pg.Client,
    readonly replaced: readonly string[],
  ) {}

  async create(): Promise<void> {
    await this.client.query(`DROP SCHEMA IF EXISTS ${STAGING_SCHEMA} CASCADE`);
    await this.client.query(`CREATE SCHEMA ${STAGING_SCHEMA}`);
    for (const table of this.replaced) {
      this.shapes.set(table, await this.readShape(table));
      // Logged, not UNLOGGED: the table becomes the live one as it is (SET LOGGED would write it all again).
      await this.client.query(
        `CREATE TABLE ${staged(table)} (LIKE ${live(table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING STORAGE INCLUDING COMPRESSION INCLUDING COMMENTS)`,
      );
    }
  }

  /** The key constraints of one table (a duplicate key in the file fails here: PostgreSQL error 23505). */
  async addKeys(table: string, client = this.client): Promise<void> {
    for (const key of this.shape(table).keys) {
      await client.query(`ALTER TABLE ${staged(table)} ADD CONSTRAINT ${quoteIdent(key.name)} ${key.definition}`);
    }
  }

  /** Foreign keys between replaced tables (their rows are checked here: both tables are staged). */
  async addForeignKeys(): Promise<void> {
    for (const table of this.replaced) {
      for (const fk of this.shape(table).foreignKeys.filter((f) => this.isReplaced(f.references))) {
        const target = fk.references.replace(/^public\./, '');
        const definition = retarget(fk.definition, `REFERENCES ${plain(live(target))}(`, `REFERENCES ${staged(target)}(`);
        await this.client.query(`ALTER TABLE ${staged(table)} ADD CONSTRAINT ${quoteIdent(fk.name)} ${definition}`);
      }
    }
  }

  /**
   * The CREATE INDEX statements of a table's indexes, for its staging copy, the longest first (a GIN index,
   * the history's trigram search index, takes several times a B-tree's time: started first, it runs beside
   * the others instead of alone at the end).
   */
  indexBuilds(table: string): Array<{ name: string; sql: string; longest: boolean }> {
    return this.shape(table).indexes.map((index) => ({
      name: index.name,
      sql: retarget(index.definition, ` ON ${plain(live(table))} `, ` ON ${staged(table)} `),
      longest: LONGEST.test(index.definition),
    }));
  }

  /** Triggers last (filling the tables fired none), and planner statistics for the first queries after the swap. */
  async addTriggersAndAnalyze(): Promise<void> {
    for (const table of this.replaced) {
      for (const trigger of this.shape(table).triggers) {
        await this.client.query(retarget(trigger.definition, ` ON ${plain(live(table))} `, ` ON ${staged(table)} `));
      }
      await this.client.query(`ANALYZE ${staged(table)}`);
    }
  }

  /**
   * Inside the caller's transaction: moves each live table out of the way, moves its staging copy in (with
   * its indexes, keys and triggers, under the same names), and drops the old tables. Only catalog changes
   * and a check of the foreign keys towards kept tables: short, whatever the row counts.
   */
  async swap(): Promise<void> {
    await this.client.query(`DROP SCHEMA IF EXISTS ${RETIRED_SCHEMA} CASCADE`);
    await this.client.query(`CREATE SCHEMA ${RETIRED_SCHEMA}`);
    for (const table of this.replaced) {
      const shape = this.shape(table);
      for (const fk of shape.referencedBy) await this.client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${quoteIdent(fk.name)}`);
      for (const owned of shape.ownedSequences) await this.client.query(`ALTER SEQUENCE ${owned.sequence} OWNED BY NONE`);
      await this.client.query(`ALTER TABLE ${live(table)} SET SCHEMA ${RETIRED_SCHEMA}`);
      await this.client.query(`ALTER TABLE ${staged(table)} SET SCHEMA public`);
      for (const owned of shape.ownedSequences) {
        await this.client.query(`ALTER SEQUENCE ${owned.sequence} OWNED BY ${live(table)}.${quoteIdent(owned.column)}`);
      }
    }
    for (const table of this.replaced) {
      const shape = this.shape(table);
      // The rows were checked against their parents before the swap: NOT VALID skips a second full scan while
      // the tables are locked; validate() marks them checked afterwards.
      for (const fk of shape.foreignKeys.filter((f) => !this.isReplaced(f.references))) {
        await this.client.query(`ALTER TABLE ${live(table)} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition} NOT VALID`);
      }
      // A kept table's rows must still find their parents in the restored one: checked here (it fails the swap).
      for (const fk of shape.referencedBy)
        await this.client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}`);
    }
    await this.client.query(`DROP TABLE ${this.replaced.map((table) => `${RETIRED_SCHEMA}.${quoteIdent(table)}`).join(', ')}`);
    await this.client.query(`DROP SCHEMA ${RETIRED_SCHEMA}`);
    // An index a restore of an earlier version deferred (they built GIN indexes after the swap) was built on
    // the new table above: nothing is left to build for it.
    await this.client.query('DELETE FROM public.deferred_indexes WHERE table_name = ANY($1)', [this.replaced]);
  }

  /** After the swap's commit: marks the foreign keys added NOT VALID as checked (no lock that blocks reads or writes). */
  async validate(): Promise<void> {
    for (const table of this.replaced) {
      for (const fk of this.shape(table).foreignKeys.filter((f) => !this.isReplaced(f.references))) {
        await this.client.query(`ALTER TABLE ${live(table)} VALIDATE CONSTRAINT ${quoteIdent(fk.name)}`);
      }
    }
  }

  async drop(): Promise<void> {
    await this.client.query(`DROP SCHEMA IF EXISTS ${STAGING_SCHEMA} CASCADE`);
  }

  private isReplaced(qualified: string): boolean {
    return this.replaced.some((table) => plain(live(table)) === qualified);
  }

  private shape(table: string): TableShape {
    const shape = this.shapes.get(table);
    if (!shape) throw new Error(`${table} is not a staged table`);
    return shape;
  }

  /** With search_path = pg_catalog, PostgreSQL writes every relation in the definitions with its schema. */
  private async readShape(table: string): Promise<TableShape> {
    await this.client.query('BEGIN');
    try {
      await this.client.query(`SET LOCAL search_path = pg_catalog`);
      const oid = `'${live(table).replace(/'/g, "''")}'::regclass`;
      const constraints = await this.client.query<{ name: string; type: string; definition: string; references: string | null }>(
        // A key's index options (a fill factor: migration 0026) are not part of pg_get_constraintdef's text.
        `SELECT conname AS name, contype AS type,
                pg_get_constraintdef(k.oid) || CASE WHEN contype IN ('p', 'u') AND i.reloptions IS NOT NULL AND pg_get_constraintdef(k.oid) NOT LIKE '% WITH (%'
                  THEN ' WITH (' || array_to_string(i.reloptions, ', ') || ')' ELSE '' END AS definition,
                CASE WHEN contype = 'f' THEN confrelid::regclass::text END AS references
         FROM pg_constraint k LEFT JOIN pg_class i ON i.oid = k.conindid AND k.contype IN ('p', 'u')
         WHERE conrelid = ${oid} AND contype IN ('p', 'u', 'x', 'f') ORDER BY contype DESC, conname`,
      );
      const indexes = await this.client.query<{ name: string; definition: string }>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = ${oid} AND NOT EXISTS (
           SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u', 'x'))
         ORDER BY c.relname`,
      );
      const triggers = await this.client.query<{ name: string; definition: string }>(
        `SELECT tgname AS name, pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgrelid = ${oid} AND NOT tgisinternal ORDER BY tgname`,
      );
      const owned = await this.client.query<{ sequence: string; column: string }>(
        `SELECT d.objid::regclass::text AS sequence, a.attname AS column
         FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
         JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
         WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = ${oid} AND d.deptype = 'a'`,
      );
      const deferred = await deferredIndexesOf(this.client, table);
      const referencedBy = await this.client.query<{ table: string; name: string; definition: string }>(
        `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
         FROM pg_constraint WHERE contype = 'f' AND confrelid = ${oid} AND conrelid <> confrelid ORDER BY conname`,
      );
      await this.client.query('COMMIT');
      return {
        keys: constraints.rows.filter((c) => c.type !== 'f'),
        foreignKeys: constraints.rows.filter((c) => c.type === 'f').map((c) => ({ ...c, references: c.references! })),
        // An index deferred by an earlier restore and not built yet is still part of the table.
        indexes: [...indexes.rows, ...deferred.filter((d) => !indexes.rows.some((index) => index.name === d.name))],
        triggers: triggers.rows,
        ownedSequences: owned.rows,
        referencedBy: referencedBy.rows.filter((fk) => !this.isReplaced(fk.table)),
      };
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
