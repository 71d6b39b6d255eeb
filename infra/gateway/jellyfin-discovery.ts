// Jellyfin's server discovery (JELLYFIN_DISCOVERY, on the door's behalf): the apps broadcast
// "who is JellyfinServer?" to UDP 7359 and list whoever answers with the door's URL, id and name,
// as Jellyfin answers. A convenience only: an app can always be given the address by hand.
// Anything else is ignored, and replies are rate-limited per asker and in all, so that datagrams
// with a forged source cannot turn the box into a reflector (a reply is a few times a question).
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Log } from '../../lib/log';

/** What the apps send; Jellyfin answers any datagram containing it, in any case. */
const QUESTION = 'who is jellyfinserver?';
/** A question is 22 bytes: anything much longer is not one, and is not even decoded. */
export const MAX_QUESTION_BYTES = 1024;
/** Replies per asker's address per second, and to all askers together. */
export const REPLIES_PER_SOURCE = 3;
export const REPLIES_IN_ALL = 50;

export interface DiscoveryOptions {
  /** The UDP port to answer on; 0: one the OS picks (tests), reported back. */
  port: number;
  /** The Jellyfin door's TCP port, named in the replies. */
  doorPort: number;
  serverId: string;
  name: string;
  /** HOST: a wildcard answers on every interface; one address, on that address and its subnet's broadcasts. */
  host: string;
  log: Log;
}

export interface Discovery {
  port: number;
  close(): Promise<void>;
}

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

const isWildcard = (host: string) => host === '' || host === '0.0.0.0' || host === '::';

/** Node 18.0-18.3 said 4 where later versions say 'IPv4'. */
const ipv4sOf = (interfaces: Interfaces) =>
  Object.values(interfaces)
    .flat()
    .filter((i): i is NetworkInterfaceInfo => !!i && (i.family === 'IPv4' || (i.family as unknown) === 4));

const toInt = (ip: string) => ip.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
const toIp = (n: number) => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');

/**
 * The address of this box the asker can reach: HOST when it names one; for an asker on loopback,
 * loopback; else the address on the asker's subnet, else the first outward one.
 */
export const replyAddress = (asker: string, host: string, interfaces: Interfaces = networkInterfaces()): string => {
  if (!isWildcard(host)) return isIPv6(host) ? `[${host}]` : host;
  if (!isIPv4(asker) || asker.startsWith('127.')) return '127.0.0.1';
  const outward = ipv4sOf(interfaces).filter((i) => !i.internal);
  const mine = outward.find((i) => {
    const mask = toInt(i.netmask);
    return (toInt(i.address) & mask) === (toInt(asker) & mask);
  });
  return (mine ?? outward[0])?.address ?? '127.0.0.1';
};

/**
 * Where to listen. On Linux a socket bound to one unicast address receives no broadcast, so HOST
 * naming an outward address also takes its subnet's broadcast address and the limited broadcast
 * (as Jellyfin binds them).
 */
export const listenAddresses = (host: string, interfaces: Interfaces = networkInterfaces()): string[] => {
  if (isWildcard(host)) return ['0.0.0.0'];
  const own = ipv4sOf(interfaces).find((i) => i.address === host && !i.internal);
  if (!own) return [host];
  const mask = toInt(own.netmask);
  const subnetBroadcast = toIp((toInt(own.address) & mask) | (~mask >>> 0));
  return [...new Set([host, subnetBroadcast, '255.255.255.255'])];
};

/** A fixed one-second window: few replies per source, and a ceiling for every source together. */
export class ReplyLimit {
  private window = -1;
  private total = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly perSource = REPLIES_PER_SOURCE,
    private readonly inAll = REPLIES_IN_ALL,
    private readonly clock: () => number = Date.now,
  ) {}

  allow(source: string): boolean {
    const window = Math.floor(this.clock() / 1000);
    if (window !== this.window) {
      this.window = window;
      this.total = 0;
      // Only sources that got a reply are kept: at most `inAll` of them.
      this.counts.clear();
    }
    const count = this.counts.get(source) ?? 0;
    if (count >= this.perSource || this.total >= this.inAll) return false;
    this.counts.set(source, count + 1);
    this.total++;
    return true;
  }
}

/** True for a datagram that asks for a Jellyfin server (bytes read as Latin-1: no character folds into an ASCII letter). */
export const isQuestion = (message: Buffer) =>
  message.length <= MAX_QUESTION_BYTES && message.toString('latin1').toLowerCase().includes(QUESTION);

const closeSocket = (socket: Socket) =>
  new Promise<void>((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve(); // already closed
    }
  });

const bind = (address: string, port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = createSocket({ type: 'udp4', reuseAddr: true });
    const failed = (err: Error) => {
      void closeSocket(socket);
      reject(err);
    };
    socket.once('error', failed);
    socket.bind(port, address, () => {
      socket.off('error', failed);
      resolve(socket);
    });
  });

/** Answers discovery until closed; rejects when a port cannot be bound (EADDRINUSE, EACCES), leaving nothing open. */
export const startDiscovery = async (opts: DiscoveryOptions): Promise<Discovery> => {
  const limit = new ReplyLimit();
  const [first, ...others] = listenAddresses(opts.host);
  const sockets = [await bind(first!, opts.port)];
  const port = sockets[0]!.address().port;
  try {
    for (const address of others) sockets.push(await bind(address, port));
  } catch (err) {
    await Promise.all(sockets.map(closeSocket));
    throw err;
  }

  const answer = (socket: Socket, message: Buffer, from: RemoteInfo) => {
    if (from.port === 0 || !isQuestion(message) || !limit.allow(from.address)) return;
    const reply = JSON.stringify({
      Address: `http://${replyAddress(from.address, opts.host)}:${opts.doorPort}`,
      Id: opts.serverId,
      Name: opts.name,
      EndpointAddress: null,
    });
    // An asker gone (ICMP unreachable) is its own business.
    socket.send(reply, from.port, from.address, () => undefined);
    opts.log.debug({ to: from.address }, 'Jellyfin discovery answered');
  };
  for (const socket of sockets) {
    socket.on('message', (message, from) => answer(socket, message, from));
    socket.on('error', (err) => opts.log.warn({ err }, 'Jellyfin discovery socket error'));
  }

  let closing: Promise<void> | undefined;
  return {
    port,
    close: () => (closing ??= Promise.all(sockets.map(closeSocket)).then(() => undefined)),
  };
};
