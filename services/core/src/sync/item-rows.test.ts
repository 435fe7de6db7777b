import { describe, expect, it } from 'vitest';
import { baseItemDtoSchema } from '../media-server/schemas/item.js';
import { itemPageRows } from './item-rows.js';

const dto = (value: unknown) => baseItemDtoSchema.parse(value);

describe('itemPageRows', () => {
  it('maps an item with two media sources, their streams and its genres; Emby HDR becomes the range type', () => {
    const rows = itemPageRows('srv', 'lib', [
      dto({
        Id: 'm1',
        Type: 'Movie',
        Name: 'Heat',
        Path: '/media/movies/Heat (1995)/Heat.mkv',
        RunTimeTicks: 102_000_000_000,
        DateCreated: '2026-01-01T10:00:00.0000000Z',
        Etag: 'e1',
        Genres: ['Crime', 'Drama', 'Crime'],
        ImageTags: { Primary: 'tag1' },
        ImageBlurHashes: { Primary: { tag1: 'LEHV6nWB2yk8' } },
        MediaSources: [
          {
            Id: 's1',
            Container: 'mkv',
            Size: 1000,
            MediaStreams: [
              { Type: 'Video', Index: 0, Codec: 'hevc', ExtendedVideoType: 'DolbyVision', Width: 3840, Height: 2160 },
              { Type: 'Audio', Index: 1, Codec: 'truehd', Channels: 8, Language: 'eng', IsDefault: true },
              { Type: 'Audio', Index: 1, Codec: 'duplicate index' },
            ],
          },
          { Id: 's2', Container: 'mp4', Size: 500, MediaStreams: [{ Type: 'Video', Index: 0, Codec: 'h264', VideoRangeType: 'SDR' }] },
        ],
      }),
      dto({ Id: 'b1', Type: 'BoxSet', Name: 'Collection' }),
    ]);
    expect(rows.items).toHaveLength(1);
    expect(rows.items[0]).toMatchObject({
      server_id: 'srv',
      id: 'm1',
      library_id: 'lib',
      file_name: 'Heat.mkv',
      size: 1500,
      container: 'mkv',
      date_created: '2026-01-01T10:00:00.0000000Z',
      etag: 'e1',
      primary_image_tag: 'tag1',
      primary_image_hash: 'LEHV6nWB2yk8',
    });
    expect(rows.sources.map((s) => [s.id, s.size])).toEqual([
      ['s1', 1000],
      ['s2', 500],
    ]);
    expect(rows.streams.map((s) => [s.media_source_id, s.stream_index, s.codec, s.video_range_type])).toEqual([
      ['s1', 0, 'hevc', 'DolbyVision'],
      ['s1', 1, 'truehd', null],
      ['s2', 0, 'h264', 'SDR'],
    ]);
    expect(rows.genres.map((g) => g.genre)).toEqual(['Crime', 'Drama']);
  });

  it('keeps one row per id when a page lists an item twice, and falls back to the item id for a source without one', () => {
    const rows = itemPageRows('srv', 'lib', [
      dto({ Id: 'e1', Type: 'Episode', Name: 'Old name' }),
      dto({ Id: 'e1', Type: 'Episode', Name: 'New name', MediaSources: [{ Size: 7 }] }),
    ]);
    expect(rows.items.map((i) => [i.id, i.name, i.size])).toEqual([['e1', 'New name', 7]]);
    expect(rows.sources.map((s) => s.id)).toEqual(['e1']);
  });
});
