// 32-bit FNV-1 (Go's hash/fnv New32 — multiply, then xor; not FNV-1a), the hash behind ControllerRevision names.

export const FNV32_OFFSET_BASIS = 2166136261;
const FNV32_PRIME = 16777619;

/**
 * FNV-1 over `bytes`, continuing from `seed` (a previous result) so input can be hashed in pieces, as
 * successive `hash.Write` calls do. Returns the unsigned 32-bit sum.
 */
// upstream: hash/fnv fnv.go sum32.Write
export function fnv1_32(bytes: Uint8Array, seed: number = FNV32_OFFSET_BASIS): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h = Math.imul(h, FNV32_PRIME) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return h;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `s` (lone surrogates become U+FFFD, as Go's []byte conversion of decoded text has them). */
export function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}
