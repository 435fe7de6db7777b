/**
 * Stream details and transcode info are stored once per distinct value in play_json_values (migration 0022);
 * a history row holds their ids. These are the SQL pieces every reader and writer shares.
 */

/** The content address of a jsonb value: the md5 of its text form, which jsonb makes canonical (key order, spacing). */
export const jsonValueHash = (value: string) => `md5((${value})::text)::uuid`;

/** The value behind a dictionary id column (NULL stays NULL). */
export const jsonValueOf = (idColumn: string) => `(SELECT value FROM play_json_values WHERE id = ${idColumn})`;

/** A history row's stream details and transcode info as the JSON they were recorded as, under their old names. */
export const historyJsonColumns = (alias: string) =>
  `${jsonValueOf(`${alias}.transcoding_info_id`)} AS transcoding_info, ${jsonValueOf(`${alias}.stream_details_id`)} AS stream_details`;

/** One row per distinct non-null value of `valuesSql` (a query of one column named value), with its hash. */
export const distinctJsonValues = (valuesSql: string) =>
  `SELECT DISTINCT ON (hash) hash, value FROM (
     SELECT ${jsonValueHash('value')} AS hash, value FROM (${valuesSql}) AS v WHERE value IS NOT NULL
   ) AS hashed ORDER BY hash`;

/** The id stored for a hash: one lookup in the dictionary's unique hash index (NULL when not stored). */
export const jsonValueIdByHash = (hash: string, dictionary = 'play_json_values') =>
  `(SELECT d.id FROM ${dictionary} d WHERE d.hash = ${hash})`;
