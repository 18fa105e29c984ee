/**
 * A backend of a suite's own with a real SMTP server (aiosmtpd, `SMTP_TEST_PYTHON`), on a fresh
 * SQLite data folder with the demo, for suites that follow an e-mail the server sends; and the
 * multi-page PDF those suites upload (the demo content has one-page PDFs only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { eventually } from './helpers';
import { backendEnv, freePort, stopProcess } from './processes';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');

/** The Python with aiosmtpd; the suites that need it are skipped without it. */
export const smtpPython = process.env.SMTP_TEST_PYTHON;

export interface MailBackend {
  /** The backend's address, e.g. `http://127.0.0.1:41234`. */
  base: string;
  /** Waits for the first e-mail to `to` and returns it. */
  mailTo(to: string): Promise<{ to: string[]; body: string }>;
  /** Stops both servers and removes the data folder. */
  stop(): Promise<void>;
}

/** Starts the project's aiosmtpd server; it appends each message to `mailbox` as a JSON line. */
function startSmtp(python: string, port: number, mailbox: string): Promise<ChildProcess> {
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

/** Starts the SMTP server, then the backend sending through it; `name` names the data folder. */
export async function startMailBackend(name: string): Promise<MailBackend> {
  const dataDir = await mkdtemp(join(tmpdir(), `companion-${name}-e2e-`));
  const mailbox = join(dataDir, 'mailbox.jsonl');
  let smtp: ChildProcess | undefined;
  let backend: ChildProcess | undefined;
  const stop = async () => {
    await stopProcess(backend);
    await stopProcess(smtp);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const smtpPort = await freePort();
    smtp = await startSmtp(smtpPython ?? '', smtpPort, mailbox);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = backendEnv(port, dataDir, {
      PUBLIC_URL: base,
      DEMO: 'true',
      MIN_FREE_DISK_MB: '0',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SMTP_FROM: 'Companion <no-reply@example.com>',
    });
    const started = spawn(inject('backendBinary'), ['serve'], { env, stdio: 'ignore' });
    backend = started;
    await eventually('the backend', async () => {
      if (started.exitCode !== null) throw new Error(`backend exited with ${started.exitCode}`);
      try {
        return (await fetch(`${base}/api/health`)).status === 200 ? true : null;
      } catch {
        return null;
      }
    });
    const mailTo = (to: string) =>
      eventually(`the e-mail to ${to}`, async () => {
        const lines = await readFile(mailbox, 'utf8').catch(() => '');
        return lines
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { to: string[]; body: string })
          .find((m) => m.to.includes(to));
      });
    return { base, mailTo, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A PDF of `count` pages, each saying its number in large type. */
export function multiPagePdf(count: number): Buffer {
  const objects: string[] = [];
  const pageIds = Array.from({ length: count }, (_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${count} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pageIds.forEach((id, i) => {
    const text = `BT /F1 48 Tf 72 700 Td (Page ${i + 1}) Tj ET BT /F1 14 Tf 72 650 Td (Surgical technique, step ${i + 1}) Tj ET`;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${text.length} >>\nstream\n${text}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = Buffer.byteLength(out);
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id += 1) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
