import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

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
