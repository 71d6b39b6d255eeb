import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isOriginAllowed, isSameOrigin, originAccepted } from '../../../lib/http/origin';

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

describe('isSameOrigin', () => {
  const box = ['media-box', 'media-box.local'];
  const cases: Array<[origin: string | undefined, host: string | undefined, same: boolean, why: string]> = [
    ['http://localhost:3000', 'localhost:3000', true, 'the web client served at localhost'],
    ['http://127.0.0.1:3000', '127.0.0.1:3000', true, 'at the loopback address'],
    ['http://[::1]:3000', '[::1]:3000', true, 'at the IPv6 loopback'],
    ['http://192.168.1.5:3000', '192.168.1.5:3000', true, "at the box's LAN address"],
    ['http://media-box:3000', 'media-box:3000', true, "at one of the box's own names"],
    ['http://media-box.local', 'MEDIA-BOX.LOCAL', true, 'Host in capitals is the same host'],
    ['http://evil.example', 'evil.example', false, 'a DNS-rebinding page'],
    ['http://evil.example:3000', 'evil.example:3000', false, "a DNS-rebinding page on the box's port"],
    ['http://other-box:3000', 'other-box:3000', false, 'a name nobody configured'],
    ['http://localhost:3001', 'localhost:3000', false, 'another port is another origin'],
    ['https://localhost:3000', 'localhost:3000', true, 'the scheme is not in Host; TLS ends before the box'],
    ['http://localhost:3000', undefined, false, 'no Host'],
    [undefined, 'localhost:3000', false, 'no Origin'],
    ['null', 'localhost:3000', false, 'an opaque origin'],
    ['http://localhost:3000/', 'localhost:3000', false, 'not an origin'],
  ];
  for (const [origin, host, same, why] of cases) {
    it(`${same ? 'is' : 'is not'} same-origin: ${why}`, () => assert.equal(isSameOrigin(origin, host, box), same));
  }

  it('never takes a public name the box was not given for its own, whatever Origin and Host say', () => {
    fc.assert(
      fc.property(fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), (name, port) => {
        const host = port === undefined ? name : `${name}:${port}`;
        assert.equal(isSameOrigin(`http://${host}`, host, box), name === 'localhost' || box.includes(name));
      }),
      { numRuns: 2_000 },
    );
  });

  it("lets the box's own page POST in production, and keeps the cross-origin rules for the rest", () => {
    const policy = { mode: 'production' as const, boxHosts: box };
    assert.equal(originAccepted({ origin: 'http://localhost:3000', host: 'localhost:3000' }, policy), true);
    assert.equal(originAccepted({ origin: 'http://localhost:3000', host: 'example.net' }, policy), false);
    assert.equal(originAccepted({ origin: 'http://192.168.1.20:8080', host: 'localhost:3000' }, policy), true);
    assert.equal(
      originAccepted({ origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', host: '127.0.0.1:3000' }, policy),
      false,
    );
    assert.equal(originAccepted({ host: 'evil.example' }, policy), true, 'no Origin: curl, TV apps');
  });
});
