import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spool, SpoolFullError, spoolFiles } from '../../ingest/spool.ts';

/** The spool on a real file system: what a crash leaves behind, and what a restart makes of it. */
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spool-test-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const record = (i: number) => Buffer.from(`{"n":${i}}\n{"n":${i}}\n`);

async function readAll(spool: Spool): Promise<string> {
  let text = '';
  for (;;) {
    const batch = await spool.read(7);
    if (!batch) return text;
    text += batch.data.toString();
    spool.consumed(batch);
  }
}

it('gives back every synced record in order, in batches of whole records, across files', async () => {
  const spool = await Spool.open({ dir, maxBytes: 1 << 20, segmentBytes: 200 });
  for (let i = 0; i < 30; i += 3) await Promise.all([i, i + 1, i + 2].map((n) => spool.append(record(n), 2)));
  expect(spoolFiles(dir).length).toBeGreaterThan(2);
  expect(spool.spooledRows).toBe(60);
  const first = await spool.read(7);
  expect(first!.rows).toBe(6); // three records of two rows: a fourth would pass 7
  const text = first!.data.toString() + (spool.consumed(first!), await readAll(spool));
  expect(text).toBe(Array.from({ length: 30 }, (_, i) => record(i).toString()).join(''));
  expect(spool.spooledRows).toBe(0);
  expect(spool.spooledBytes).toBe(0);
  await spool.close();
  expect(spoolFiles(dir)).toEqual([]);
});

it('after a crash: a torn last record is cut and the read position survives', async () => {
  const spool = await Spool.open({ dir, maxBytes: 1 << 20 });
  for (let i = 0; i < 10; i++) await spool.append(record(i), 2);
  const batch = await spool.read(4);
  spool.consumed(batch!); // records 0 and 1 are in ClickHouse
  await new Promise((r) => setTimeout(r, 1200)); // the read position is saved within a second
  // The process dies: no close(), the lock stays. A half-written record follows the synced ones.
  const [file] = spoolFiles(dir);
  appendFileSync(join(dir, file!.name), Buffer.from([0, 0, 0, 50, 0, 2, 1, 2, 3, 4, 65, 66]));
  writeFileSync(join(dir, 'lock'), '999999999');

  const reopened = await Spool.open({ dir, maxBytes: 1 << 20 });
  expect(reopened.spooledRows).toBe(16);
  expect(await readAll(reopened)).toBe(Array.from({ length: 8 }, (_, i) => record(i + 2).toString()).join(''));
  await reopened.close();
  expect(spoolFiles(dir)).toEqual([]);
});

it('ends a file at a record whose checksum does not match when it recovers the spool', async () => {
  const spool = await Spool.open({ dir, maxBytes: 1 << 20 });
  for (let i = 0; i < 4; i++) await spool.append(record(i), 2);
  const [file] = spoolFiles(dir);
  const path = join(dir, file!.name);
  const bytes = readFileSync(path);
  bytes[bytes.length - 3] = 'X'.charCodeAt(0); // inside the last record's payload
  writeFileSync(path, bytes);
  const corrupt: number[] = [];
  const recovered = await Spool.open({ dir, maxBytes: 1 << 20, onCorrupt: (_file, offset) => corrupt.push(offset) });
  // Recovery already treats the damaged record as the end of the file (it cannot tell it from a torn write).
  expect(await readAll(recovered)).toBe([0, 1, 2].map((i) => record(i).toString()).join(''));
  await recovered.close();
  expect(existsSync(path)).toBe(false);
  expect(corrupt).toEqual([]);
});

it('refuses a second process on the same directory, and refuses records beyond its size', async () => {
  const spool = await Spool.open({ dir, maxBytes: 100 });
  writeFileSync(join(dir, 'lock'), String(process.ppid)); // a live process that is not this one
  await expect(Spool.open({ dir, maxBytes: 100 })).rejects.toThrow(/in use by process/);
  writeFileSync(join(dir, 'lock'), String(process.pid));
  expect(spool.hasRoom).toBe(true);
  await spool.append(Buffer.alloc(60, 'a'), 1);
  await expect(spool.append(Buffer.alloc(60, 'b'), 1)).rejects.toBeInstanceOf(SpoolFullError);
  expect(spool.hasRoom).toBe(true); // 70 of 100 bytes (a 10-byte header each): under the 90 % readiness asks for
  await spool.append(Buffer.alloc(20, 'c'), 1); // 70 + 30 bytes with their headers
  expect(spool.hasRoom).toBe(false); // the ingest's readiness check fails from here
  await spool.close();
});
