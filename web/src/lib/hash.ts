import { sha3_512 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Passwords leave the browser only as their SHA3-512 hex digest (SPEC.md §5, docs/security.md). */
export function hashPassword(password: string): string {
  return bytesToHex(sha3_512(utf8ToBytes(password)));
}
