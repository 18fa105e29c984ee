import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');

/**
 * The environment of a backend a suite starts on `port` with its own data folder: the built web
 * app, the repository's content, a fresh embedded database (never the caller's DATABASE_URL),
 * and `settings` on top.
 */
export function backendEnv(port: number, dataDir: string, settings: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    BIND_ADDRESS: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIR: join(webDir, 'dist'),
    CONTENT_DIR: join(repoDir, 'content'),
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
    ...settings,
  };
  delete env.DATABASE_URL;
  return env;
}

/** A port free on 127.0.0.1 for a server the suites start. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Stops a server the suites started: SIGTERM, then SIGKILL if it has not gone after 5 s. */
export function stopProcess(child: ChildProcess | undefined): Promise<void> {
  return new Promise((done) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return done();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      done();
    });
    child.kill('SIGTERM');
  });
}
