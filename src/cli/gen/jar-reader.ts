// Reads the entries of a jar (a zip file) through its central directory, with node:zlib for the
// deflated ones. A jar needs only stored and deflated entries; zip64 and encryption are refused.
import { inflateRawSync } from "node:zlib";

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 65535 bytes. */
const END_RECORD_MAX_SEARCH = 22 + 0xffff;
const STORED = 0;
const DEFLATED = 8;

class JarFormatError extends Error {
  override name = "JarFormatError";
}

function endOfCentralDirectory(jar: Buffer, where: string): number {
  const lowest = Math.max(0, jar.length - END_RECORD_MAX_SEARCH);
  for (let at = jar.length - 22; at >= lowest; at--) {
    if (jar.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new JarFormatError(`${where} is not a jar or zip file (no end of central directory record)`);
}

/**
 * The entries of a jar whose names `wanted` accepts, by name, uncompressed. `where` names the file
 * in errors.
 */
export function readJarEntries(
  jar: Buffer,
  where: string,
  wanted: (name: string) => boolean,
): Map<string, Buffer> {
  const end = endOfCentralDirectory(jar, where);
  const count = jar.readUInt16LE(end + 10);
  let at = jar.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) {
    throw new JarFormatError(
      `${where} is a zip64 archive, which dubbo-ts gen does not read; repack it as a plain jar`,
    );
  }
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (jar.readUInt32LE(at) !== CENTRAL_ENTRY) {
      throw new JarFormatError(`${where}: central directory entry ${i} is damaged`);
    }
    const flags = jar.readUInt16LE(at + 8);
    const method = jar.readUInt16LE(at + 10);
    const compressedSize = jar.readUInt32LE(at + 20);
    const nameLength = jar.readUInt16LE(at + 28);
    const extraLength = jar.readUInt16LE(at + 30);
    const commentLength = jar.readUInt16LE(at + 32);
    const localOffset = jar.readUInt32LE(at + 42);
    const name = jar.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/") || !wanted(name)) continue;
    if ((flags & 1) !== 0) throw new JarFormatError(`${where}: ${name} is encrypted`);
    entries.set(name, entryData(jar, where, name, method, localOffset, compressedSize));
  }
  return entries;
}

function entryData(
  jar: Buffer,
  where: string,
  name: string,
  method: number,
  localOffset: number,
  compressedSize: number,
): Buffer {
  if (jar.readUInt32LE(localOffset) !== LOCAL_ENTRY) {
    throw new JarFormatError(`${where}: the local header of ${name} is damaged`);
  }
  // The local header's own name and extra lengths may differ from the central directory's.
  const start = localOffset + 30 + jar.readUInt16LE(localOffset + 26) + jar.readUInt16LE(localOffset + 28);
  const data = jar.subarray(start, start + compressedSize);
  if (method === STORED) return data;
  if (method === DEFLATED) return inflateRawSync(data);
  throw new JarFormatError(`${where}: ${name} uses compression method ${method}; a jar uses 0 or 8`);
}
