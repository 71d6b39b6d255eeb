// What the store contracts share (test/contracts/*.ts). A contract is written once as a function
// of a port and run against each of its adapters: DynamoDB's on the test run's DynamoDB Local
// (test/integration/store-contracts.test.ts), the in-memory one without a stack
// (test/unit/store-contracts.test.ts). The contracts speak only the ports' methods, never a
// table's keys.
//
// Each contract runs on a store of its own, empty when it starts, that nothing else writes to
// (for DynamoDB: a table of its own, test/support/own-table.ts), and its tests run one after
// another, each removing what it wrote. So lists, orders and totals are asserted whole: an item
// too many, one missing or one out of place fails.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/errors';
import type { TechnicalInfo } from '../../lib/media/technical-info';

export const uid = () => randomUUID().replaceAll('-', '');

export const isProblem = (status: number, code: string) => (err: unknown) => {
  assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
  assert.equal(err.status, status);
  assert.equal(err.code, code);
  return true;
};

/** A fixed moment, `seconds` after a base long ago. */
export const longAgo = (seconds: number) => new Date(Date.UTC(1990, 0, 1) + seconds * 1000).toISOString();

/** Every field of a file's technical info filled in, so a round trip that loses or reshapes one shows. */
export const TECH: TechnicalInfo = {
  durationSeconds: 7_265.432,
  container: 'matroska',
  bitrate: 12_345_678,
  video: { codec: 'hevc', width: 3840, height: 2160, frameRate: 23.976, bitDepth: 10, hdr: 'dolby-vision' },
  audio: [
    { codec: 'truehd', channels: 8, language: 'en' },
    { codec: 'ac3', channels: 6, language: 'pt-BR' },
    { codec: 'aac', channels: null, language: null },
  ],
  subtitles: [
    { codec: 'pgs', language: 'de' },
    { codec: null, language: null },
  ],
};

export const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
