/** Word lists for made-up titles. All invented; combined by the seeded generator. */
export const ADJECTIVES = [
  'Silent', 'Crimson', 'Hollow', 'Last', 'Broken', 'Golden', 'Distant', 'Electric', 'Hidden', 'Northern',
  'Paper', 'Quiet', 'Restless', 'Savage', 'Tender', 'Wandering', 'Bright', 'Cold', 'Endless', 'Final',
  'Iron', 'Lonely', 'Midnight', 'Neon', 'Pale', 'Secret', 'Stolen', 'Velvet', 'Wild', 'Burning',
];
export const NOUNS = [
  'Harbor', 'Signal', 'Empire', 'Garden', 'Frontier', 'Mirror', 'Orchard', 'River', 'Station', 'Summer',
  'Kingdom', 'Lantern', 'Machine', 'Ocean', 'Protocol', 'Shadow', 'Tower', 'Voyage', 'Winter', 'Witness',
  'Archive', 'Circuit', 'Desert', 'Echo', 'Forest', 'Horizon', 'Island', 'Journey', 'Legacy', 'Meridian',
];
export const FIRST_NAMES = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'niaj',
  'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yara', 'zoe', 'amir', 'bea', 'chen',
  'dara', 'emil', 'fatima', 'goran', 'hana', 'igor', 'jonas', 'kira', 'lena', 'marco', 'nora', 'omar',
];
export const ARTIST_WORDS = [
  'Velvet', 'Static', 'Lunar', 'Arcade', 'Cobalt', 'Paper', 'Hollow', 'Glass', 'Neon', 'Satellite',
  'Orchid', 'Thunder', 'Marble', 'Echo', 'Saffron', 'Delta', 'Copper', 'Polar', 'Amber', 'Fever',
];
export const ARTIST_SUFFIX = ['Hearts', 'Machines', 'Collective', 'Trio', 'Parade', 'Kids', 'Society', 'Orchestra', 'Club', 'Ghosts'];
export const MOVIE_GENRES = [
  'Action', 'Adventure', 'Animation', 'Comedy', 'Crime', 'Documentary', 'Drama', 'Family', 'Fantasy',
  'History', 'Horror', 'Music', 'Mystery', 'Romance', 'Science Fiction', 'Thriller', 'War', 'Western',
];
export const TV_GENRES = ['Drama', 'Comedy', 'Crime', 'Documentary', 'Reality', 'Sci-Fi & Fantasy', 'Animation', 'Mystery', 'Kids'];
export const MUSIC_GENRES = ['Rock', 'Pop', 'Jazz', 'Electronic', 'Hip-Hop', 'Classical', 'Folk', 'Metal', 'Soul', 'Ambient'];
export const STUDIOS = ['Northlight Pictures', 'Blue Quarry', 'Harborview', 'Meridian Films', 'Tin Roof', 'Parallax'];
export const RATINGS = ['G', 'PG', 'PG-13', 'R', 'NR', 'TV-14', 'TV-MA', 'TV-PG'];
export const LANGS = ['eng', 'fre', 'ger', 'spa', 'ita', 'jpn', 'kor', 'por', 'dut', 'swe'];
