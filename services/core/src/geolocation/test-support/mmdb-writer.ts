/**
 * Writes a small MaxMind DB (.mmdb) file for tests: IPv4 networks with their records, 24-bit search-tree
 * records, format 2.0, as described in the public MaxMind DB File Format Specification. Enough to test the
 * reading side against a real file without shipping MaxMind's database.
 */
type Value = string | number | boolean | Value[] | { [key: string]: Value };

export interface MmdbNetwork {
  /** e.g. 81.2.69.0/24 */
  cidr: string;
  record: { [key: string]: Value };
}

const METADATA_MARKER = Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com')]);

export function writeMmdb(networks: MmdbNetwork[], databaseType = 'GeoLite2-City'): Buffer {
  // Data section: one encoded record per network.
  const records: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const network of networks) {
    offsets.push(size);
    const encoded = encode(network.record);
    records.push(encoded);
    size += encoded.length;
  }

  // Search tree: a binary trie over the address bits; leaves point into the data section.
  interface Node {
    children: [Node | number | null, Node | number | null];
    index?: number;
  }
  const root: Node = { children: [null, null] };
  networks.forEach((network, n) => {
    const [address, prefixText] = network.cidr.split('/');
    const prefix = Number(prefixText);
    const bits = address!.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
    let node = root;
    for (let depth = 0; depth < prefix; depth++) {
      const bit = Math.floor(bits / 2 ** (31 - depth)) % 2;
      if (depth === prefix - 1) node.children[bit] = n;
      else {
        const next = node.children[bit];
        if (typeof next === 'number') throw new Error(`${network.cidr} overlaps another network`);
        node = next ?? (node.children[bit] = { children: [null, null] });
      }
    }
  });
  const nodes: Node[] = [];
  const number = (node: Node) => {
    node.index = nodes.length;
    nodes.push(node);
    for (const child of node.children) if (child !== null && typeof child === 'object') number(child);
  };
  number(root);
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((node, i) => {
    node.children.forEach((child, side) => {
      // A node index, "no data" (= node count), or a data pointer (node count + 16 + offset).
      const value = child === null ? nodeCount : typeof child === 'number' ? nodeCount + 16 + offsets[child]! : child.index!;
      tree.writeUIntBE(value, i * 6 + side * 3, 3);
    });
  });

  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 4,
    database_type: databaseType,
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: Math.floor(Date.UTC(2026, 0, 1) / 1000),
    description: { en: 'Reelstat test database' },
  });
  return Buffer.concat([tree, Buffer.alloc(16), ...records, METADATA_MARKER, metadata]);
}

function control(type: number, length: number): Buffer {
  const extended = type > 7;
  const head = (extended ? 0 : type << 5) | (length < 29 ? length : length < 285 ? 29 : 30);
  const parts = [head];
  if (extended) parts.push(type - 7);
  if (length >= 29 && length < 285) parts.push(length - 29);
  else if (length >= 285) parts.push(((length - 285) >> 8) & 0xff, (length - 285) & 0xff);
  return Buffer.from(parts);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0);
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleBE(value);
      return Buffer.concat([control(3, 8), bytes]);
    }
    // uint32 (type 6), or uint64 (type 9) beyond it; big-endian with no leading zero bytes.
    const hex = value.toString(16);
    const bytes = value === 0 ? Buffer.alloc(0) : Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
    return Buffer.concat([control(value > 0xffffffff ? 9 : 6, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([key, item]) => [encode(key), encode(item)])]);
}
