/**
 * The bytes of each part of a VSIX, as stored (compressed) and unpacked, from the zip's central directory:
 * `npx tsx bench/vsixParts.ts [model-access-<version>.vsix] [another.vsix to compare]` (docs/benchmarks.md, "VSIX").
 */
import * as fs from 'node:fs';

interface Part {
  stored: number;
  unpacked: number;
}

export function vsixParts(file: string): Map<string, Part> {
  const zip = fs.readFileSync(file);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) {
    throw new Error(`${file} is not a zip file`);
  }
  const count = zip.readUInt16LE(eocd + 10);
  const parts = new Map<string, Part>();
  for (let i = 0, p = zip.readUInt32LE(eocd + 16); i < count; i++) {
    const nameLen = zip.readUInt16LE(p + 28);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLen);
    parts.set(name, { stored: zip.readUInt32LE(p + 20), unpacked: zip.readUInt32LE(p + 24) });
    p += 46 + nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return parts;
}

if (require.main === module) {
  const [
    file = `model-access-${(JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version}.vsix`,
    other,
  ] = process.argv.slice(2);
  const after = vsixParts(file);
  const before = other ? vsixParts(other) : undefined;
  const names = [...new Set([...(before?.keys() ?? []), ...after.keys()])].sort();
  const kb = (n: number | undefined) => (n === undefined ? '—' : (n / 1000).toFixed(1));
  console.log(
    before
      ? `| part | stored KB (${other}) | stored KB (${file}) | unpacked KB before | unpacked KB after |\n|---|--:|--:|--:|--:|`
      : '| part | stored KB | unpacked KB |\n|---|--:|--:|',
  );
  for (const n of names) {
    const a = after.get(n);
    const b = before?.get(n);
    console.log(
      before
        ? `| ${n} | ${kb(b?.stored)} | ${kb(a?.stored)} | ${kb(b?.unpacked)} | ${kb(a?.unpacked)} |`
        : `| ${n} | ${kb(a?.stored)} | ${kb(a?.unpacked)} |`,
    );
  }
  const size = (f: string) => fs.statSync(f).size;
  console.log(
    before ? `\nVSIX: ${size(other)} bytes before, ${size(file)} bytes after` : `\nVSIX: ${size(file)} bytes`,
  );
}
