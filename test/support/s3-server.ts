// The S3-API server of the tests in a process of its own: s3rver signs its list continuation
// tokens with DES, which Node's OpenSSL 3 only offers with --openssl-legacy-provider, a flag
// the test processes themselves should not carry. Prints its port; exits when its parent
// closes stdin (so it never outlives a test run that was killed).
import S3rver from 's3rver';

const directory = process.argv[2];
if (!directory) throw new Error('usage: s3-server <directory>');
const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
const { port } = await server.run();
process.stdout.write(`${port}\n`);
process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
process.stdin.resume();
