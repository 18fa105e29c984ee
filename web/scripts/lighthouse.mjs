// Lighthouse performance of the login and home screens, mobile (Lighthouse's default: a
// mid-range phone on a throttled 4G network), against a running server:
//   npm -w web run lighthouse -- [base URL, default http://127.0.0.1:8080] [e-mail] [password]
// Home needs a session: the script signs in through the API and puts the session where the app
// keeps it before Lighthouse loads the page. Prints one score per screen (0 to 1).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const base = (process.argv[2] ?? process.env.COMPANION_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const email = process.argv[3] ?? 'anna.rossi@example.com';
const password = process.argv[4] ?? 'Companion-2026';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function signIn() {
  const response = await fetch(`${base}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.json();
}

/** One Lighthouse run; `prepare` may set up the page's storage first (kept: disableStorageReset). */
async function measure(chrome, path, prepare) {
  if (prepare) {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    await page.goto(`${base}/privacy`, { waitUntil: 'domcontentloaded' });
    await page.evaluate(prepare.fn, prepare.arg);
    await page.close();
    await browser.disconnect();
  }
  const result = await lighthouse(`${base}${path}`, {
    port: chrome.port,
    onlyCategories: ['performance'],
    output: 'json',
    logLevel: 'error',
    disableStorageReset: Boolean(prepare),
  });
  const { lhr } = result;
  const metric = (id) => lhr.audits[id]?.displayValue ?? '-';
  return {
    path,
    score: lhr.categories.performance.score,
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    finalUrl: lhr.finalDisplayedUrl,
    // What to look at when a score drops.
    lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '-',
    shifts: (lhr.audits['layout-shifts']?.details?.items ?? [])
      .slice(0, 3)
      .map((item) => `${item.node?.snippet ?? '?'} ${Number(item.score ?? 0).toFixed(3)}`),
  };
}

const session = await signIn();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: FLAGS,
});
try {
  const results = [];
  results.push(await measure(chrome, '/login'));
  results.push(
    await measure(chrome, '/home', {
      fn: ({ jwt, user }) => {
        localStorage.setItem('companion.token', jwt);
        localStorage.setItem(
          'companion.session',
          JSON.stringify({ user, needAcceptTerms: false, onboarding: false, push: false, updateId: null }),
        );
      },
      arg: { jwt: session.jwt, user: session.user },
    }),
  );
  for (const r of results) {
    console.log(
      `${r.path}\tperformance ${r.score}\tFCP ${r.fcp}\tLCP ${r.lcp}\tTBT ${r.tbt}\tCLS ${r.cls}\t(${r.finalUrl})`,
    );
    if (process.env.LIGHTHOUSE_DETAILS === '1') {
      console.log(`  LCP element: ${r.lcpElement}`);
      for (const shift of r.shifts) console.log(`  shift: ${shift}`);
    }
  }
} finally {
  await chrome.kill();
}
