// Byte mutations in the manner of libFuzzer's: flips, interesting values, inserted and removed
// runs, chunks copied within the input or spliced from another corpus entry, drawn from a seeded
// random source so a run repeats.

const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0xff, 0xda, 0xbb, 0x43, 0x4f, 0x51, 0x48, 0x56, 0x58, 0x5a];

export type Random = () => number;

export function mutate(input: Buffer, other: Buffer, random: Random, maxLength: number): Buffer {
  const below = (n: number) => Math.floor(random() * n);
  let bytes = Buffer.from(input);
  const steps = 1 + below(4);
  for (let s = 0; s < steps; s++) {
    const at = below(bytes.length + 1);
    switch (below(7)) {
      case 0:
        if (at < bytes.length) bytes[at] = (bytes[at] ?? 0) ^ (1 << below(8));
        break;
      case 1:
        if (at < bytes.length) bytes[at] = INTERESTING[below(INTERESTING.length)] ?? 0;
        break;
      case 2:
        if (at < bytes.length) bytes[at] = below(256);
        break;
      case 3: {
        const run = Buffer.alloc(1 + below(8), below(256));
        bytes = Buffer.concat([bytes.subarray(0, at), run, bytes.subarray(at)]);
        break;
      }
      case 4:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1 + below(8))]);
        break;
      case 5: {
        const from = below(bytes.length + 1);
        const chunk = bytes.subarray(from, from + 1 + below(16));
        bytes = Buffer.concat([bytes.subarray(0, at), chunk, bytes.subarray(at)]);
        break;
      }
      default: {
        const from = below(other.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, at), other.subarray(from, from + 1 + below(32))]);
        break;
      }
    }
  }
  return bytes.length > maxLength ? bytes.subarray(0, maxLength) : bytes;
}
