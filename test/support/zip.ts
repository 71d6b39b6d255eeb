// Unpacks a zip file (the artifacts `npm run package` writes) the way Lambda does, with no
// tool outside Node: the central directory names each entry, its local header says where the
// bytes start, and they are stored or deflated.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

export interface ZipEntry {
  name: string;
  bytes: Buffer;
}

export const readZip = (file: string): ZipEntry[] => {
  const zip = readFileSync(file);
  // The end record is the last 22 bytes, unless a comment follows it.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end--;
  if (end < 0) throw new Error(`${file} is not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_ENTRY) throw new Error(`${file}: broken central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(localOffset) !== LOCAL_HEADER) throw new Error(`${file}: broken entry ${name}`);
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(start, start + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`${file}: ${name} uses compression method ${method}`);
    entries.push({ name, bytes: method === 8 ? inflateRawSync(data) : Buffer.from(data) });
  }
  return entries;
};

/** Writes every file of the zip below `dir`; returns their names. */
export const extractZip = (file: string, dir: string): string[] => {
  const root = resolve(dir);
  return readZip(file).map(({ name, bytes }) => {
    const target = resolve(root, name);
    if (!target.startsWith(root + sep)) throw new Error(`${file}: ${name} would land outside ${dir}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
    return name;
  });
};

export const zipNames = (file: string) => readZip(file).map((e) => e.name);
