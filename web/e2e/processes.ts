import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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

/** Starts the project's aiosmtpd server; it appends each message to `mailbox` as a JSON line. */
export function startSmtp(python: string, port: number, mailbox: string): Promise<ChildProcess> {
  const child = spawn(python, [join(repoDir, 'backend/tests/api/smtp_server.py'), String(port), mailbox], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) done(child);
    });
    child.once('exit', (code) => reject(new Error(`the SMTP server exited (${code})`)));
  });
}
