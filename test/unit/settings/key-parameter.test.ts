// The cloud's TMDB key from SSM Parameter Store, through the real SDK client against our fake
// of the service (no local SSM server exists): decrypted, cached for a while, missing = no key,
// a failure after a good read keeps the key, a failure before one is the 503 problem.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../../lib/errors';
import { keyParameter } from '../../../lib/settings/key-parameter';
import { FakeSsm } from '../../support/fake-ssm';
import type { JsonService } from '../../support/fake-aws-json';

const NAME = '/media-library/prod/tmdb-api-key';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let fake: FakeSsm;
let service: JsonService;

const reader = (name: string, clock: { now: number }) =>
  keyParameter({ name, region: 'us-east-1', endpoint: service.url, localCredentials: credentials, ttlMs: 60_000, now: () => clock.now });

describe('the TMDB key parameter', () => {
  before(async () => {
    fake = new FakeSsm();
    service = await fake.start();
  });
  after(async () => service?.close());

  it('reads the SecureString decrypted, once per few minutes', async () => {
    fake.putSecureString(NAME, 'first-key-1234');
    const clock = { now: 0 };
    const read = reader(NAME, clock);
    const before = fake.calls.length;
    assert.equal(await read(), 'first-key-1234');
    assert.equal(await read(), 'first-key-1234');
    assert.equal(fake.calls.length - before, 1);
    assert.equal(fake.calls.at(-1)!.WithDecryption, true);
    fake.putSecureString(NAME, 'rotated-key-5678');
    clock.now += 61_000;
    assert.equal(await read(), 'rotated-key-5678', 'a rotated key is taken once the cache is old');
  });

  it('is no key while the parameter does not exist', async () => {
    const read = reader('/media-library/prod/never-set', { now: 0 });
    assert.equal(await read(), undefined);
  });

  it('keeps the key it read when the service fails later, and is the 503 problem when it never read one', async () => {
    const clock = { now: 0 };
    fake.putSecureString(NAME, 'kept-key-0000');
    const read = reader(NAME, clock);
    assert.equal(await read(), 'kept-key-0000');
    fake.throttling = true;
    try {
      clock.now += 61_000;
      assert.equal(await read(), 'kept-key-0000');
      const fresh = reader(NAME, { now: 0 });
      await assert.rejects(
        fresh(),
        (err: unknown) => err instanceof AppError && err.status === 503 && /TMDB key parameter/.test(err.message),
      );
    } finally {
      fake.throttling = false;
    }
  });
});
