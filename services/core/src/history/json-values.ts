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
