/**
 * The Playback Reporting plugin's custom-query answer (contract §6): `colums` is misspelled by the plugin,
 * every cell is a string, and SQL errors come back as HTTP 200 with `message` set.
 */
import { z } from 'zod';

export const customQueryResponseSchema = z.object({
  colums: z.array(z.string()).optional(),
  /** A NULL cell arrives as null (removed while parsing) and is read as ''. */
  results: z
    .array(
      z.array(
        z
          .string()
          .optional()
          .transform((v) => v ?? ''),
      ),
    )
    .optional(),
  message: z.string().optional(),
});
export type CustomQueryResponse = z.infer<typeof customQueryResponseSchema>;

export interface PlaybackReportingResult {
  columns: string[];
  /** Every cell as the plugin wrote it: a string, numbers included. */
  rows: string[][];
  /** The plugin's note when nothing was returned ("Query executed, no data returned…"), else ''. */
  message: string;
}

/** Rows as objects keyed by column name. */
export function playbackReportingRecords(result: PlaybackReportingResult): Record<string, string>[] {
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i] ?? ''])));
}
