import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isOriginAllowed } from '../../../lib/http/origin';

describe('isOriginAllowed', () => {
  const cases: Array<[origin: string | undefined, production: boolean, development: boolean]> = [
    [undefined, true, true], // curl, TV apps, same-origin navigation
    ['http://192.168.1.20', true, true],
    ['http://192.168.1.20:8080', true, true],
    ['https://10.0.0.7:8443', true, true],
    ['http://172.16.0.1', true, true],
    ['http://172.31.255.254:3000', true, true],
    ['http://172.32.0.1', false, false], // just outside 172.16.0.0/12
    ['http://172.15.0.1', false, false],
    ['http://192.169.0.1', false, false],
    ['http://10.0.0.256', false, false], // not an address at all
    ['http://localhost:5173', false, true],
    ['http://127.0.0.1:3000', false, true],
    ['http://[::1]:3000', false, true],
    ['https://evil.example', false, false],
    ['http://192.168.1.20.evil.example', false, false],
    ['null', false, false], // sandboxed iframes and file:// pages
    ['file://', false, false],
    ['http://192.168.1.20/path', false, false], // an origin has no path
    ['', false, false],
  ];
  for (const [origin, production, development] of cases) {
    it(`${production ? 'allows' : 'refuses'} ${JSON.stringify(origin)} in production and ${development ? 'allows' : 'refuses'} it in development`, () => {
      assert.equal(isOriginAllowed(origin, 'production'), production);
      assert.equal(isOriginAllowed(origin, 'development'), development);
    });
  }

  it('never throws and never allows a public domain, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        assert.equal(typeof isOriginAllowed(s, 'development'), 'boolean');
      }),
      { numRuns: 10_000 },
    );
    fc.assert(
      fc.property(fc.domain(), fc.constantFrom('http', 'https'), (host, scheme) => {
        assert.equal(isOriginAllowed(`${scheme}://${host}`, 'development'), host === 'localhost');
      }),
      { numRuns: 2_000 },
    );
  });
});
