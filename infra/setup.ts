// Runs after `npm install`: the embedded database needs Java 17+ with a JDK (its loopback
// launcher is a Java source file). Where it is missing and we may install packages (root
// with apt-get), install it; otherwise say exactly what to do. Never fails the install.
import { execFileSync, spawnSync } from 'node:child_process';
import { javaCanRunSource, javaVersion } from './runner/dynamodb/local';

const PACKAGE = 'openjdk-17-jdk-headless';

const main = () => {
  const version = javaVersion();
  if (version && version >= 17 && javaCanRunSource()) return;
  if (process.env.DYNAMODB_ENDPOINT) return; // an external DynamoDB needs no Java here
  const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canApt) {
    process.stderr.write(
      `\nThe embedded database needs Java 17+ with a JDK. Install it (e.g. \`sudo apt-get install ${PACKAGE}\`)\n` +
        'or point DYNAMODB_ENDPOINT at another DynamoDB.\n\n',
    );
    return;
  }
  process.stderr.write(`Installing ${PACKAGE} for the embedded database...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', PACKAGE], { stdio: 'inherit', env });
  } catch {
    process.stderr.write(`Could not install ${PACKAGE}; install it by hand or set DYNAMODB_ENDPOINT.\n`);
  }
};

main();
