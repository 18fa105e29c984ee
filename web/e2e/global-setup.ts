import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { backendEnv, freePort, stopProcess } from './processes';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the backend serving the built app, e.g. http://127.0.0.1:41234 */
    baseURL: string;
    /** The backend binary and its data folder, for suites that run its commands (`companion feed push`). */
    backendBinary: string;
    dataDir: string;
  }
}

/** The instant the server reads the course calendar at during the suites. */
const E2E_CALENDAR_NOW = '2026-03-01T09:00:00Z';

function buildWeb(): void {
  const vite = join(repoDir, 'node_modules', 'vite', 'bin', 'vite.js');
  const viteBin = existsSync(vite) ? vite : join(webDir, 'node_modules', 'vite', 'bin', 'vite.js');
  console.log('[e2e] building the web app (set E2E_SKIP_BUILD=1 to reuse web/dist)');
  // Vitest sets NODE_ENV=test, which would give the development build of React: the browser
  // tests must run the bundle users get.
  const result = spawnSync(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('vite build failed');
}

function backendBinary(): string {
  const targetDir = process.env.CARGO_TARGET_DIR
    ? resolve(repoDir, process.env.CARGO_TARGET_DIR)
    : join(repoDir, 'target');
  const binary = join(targetDir, 'debug', 'companion');
  if (!existsSync(binary)) {
    throw new Error(
      `Backend binary not found at ${binary}. Build it first: cargo build -p backend ` +
        '(the suite honours CARGO_TARGET_DIR).',
    );
  }
  return binary;
}

async function waitForHealth(baseURL: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Backend exited with code ${child.exitCode}:\n${await tail(logFile)}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Backend did not answer /api/health in time:\n${await tail(logFile)}`);
}

async function tail(file: string, lines = 40): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.E2E_SKIP_BUILD !== '1') buildWeb();
  if (!existsSync(join(webDir, 'dist', 'index.html'))) throw new Error('web/dist is missing: build the web app');

  const binary = backendBinary();
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'companion-e2e-'));
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);

  // A fresh embedded database in the temporary data folder.
  const env = backendEnv(port, dataDir, {
    // The suites sign in with the demo accounts.
    DEMO: 'true',
    // The demo courses are dated: the suites read the course calendar on 1 March 2026 (course 2,
    // of 25 February, has taken place; the others of 2026 are to come), whatever day they run.
    CALENDAR_NOW: E2E_CALENDAR_NOW,
    // Uploads must not depend on the machine's free disk (the guard has its own API test).
    MIN_FREE_DISK_MB: '0',
  });

  const child = spawn(binary, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseURL, child, logFile);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  console.log(`[e2e] backend ready at ${baseURL} (data in ${dataDir})`);
  project.provide('baseURL', baseURL);
  project.provide('backendBinary', binary);
  project.provide('dataDir', dataDir);

  return async () => {
    await stopProcess(child);
    log.end();
    if (process.env.E2E_KEEP_DATA === '1') console.log(`[e2e] kept ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  };
}
