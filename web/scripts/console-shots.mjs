// Screenshots of the content console at 1280 px against the dev server, the API answered by
// fixtures (`node scripts/console-shots.mjs [base-url] [out-dir]`).
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const BASE = process.argv[2] ?? 'http://localhost:5173';
const OUT = process.argv[3] ?? '/work/shots';
mkdirSync(OUT, { recursive: true });

const DAY = 24 * 3600 * 1000;
const now = Date.now();
const iso = (ms) => new Date(ms).toISOString();
const person = (id, name) => ({ id, name });
const ana = person('u-pub', 'Ana Publisher');
const alex = person('u-app', 'Alex Approver');

function user(role) {
  return {
    id: `u-${role}`,
    email: `${role}@example.com`,
    first_name: role === 'approver' ? 'Alex' : 'Ana',
    last_name: role === 'approver' ? 'Approver' : 'Publisher',
    certificate: null,
    teams: null,
    role,
    show_us: true,
  };
}

const docs = [
  {
    id: 100004,
    title: 'Knee system surgical technique',
    status: 'in_review',
    version: 2,
    released_version: 1,
    audience: 'all',
    labels: ['controlled_release'],
    release_at: null,
    expires_at: iso(now + 300 * DAY),
  },
  {
    id: 100003,
    title: 'Hip stem sizing chart',
    status: 'draft',
    version: 1,
    released_version: null,
    audience: 'us',
    labels: ['for_internal_use'],
    release_at: iso(now + 10 * DAY),
    expires_at: null,
  },
  {
    id: 12,
    title: 'Shoulder IFU',
    status: 'released',
    version: 3,
    released_version: 3,
    audience: 'all',
    labels: [],
    release_at: iso(now - 90 * DAY),
    expires_at: iso(now + 20 * DAY),
  },
  {
    id: 100001,
    title: 'Cemented cup brochure 2025',
    status: 'withdrawn',
    version: 1,
    released_version: 1,
    audience: 'us',
    labels: ['upon_request'],
    release_at: iso(now - 200 * DAY),
    expires_at: null,
  },
  {
    id: 7,
    title: 'Revision knee price list',
    status: 'expired',
    version: 2,
    released_version: 2,
    audience: 'us',
    labels: ['for_internal_use'],
    release_at: iso(now - 400 * DAY),
    expires_at: iso(now - 5 * DAY),
  },
].map((d) => ({
  products: ['knee-3'],
  programmes: [],
  category: 'Surgical techniques',
  updated_at: iso(now - DAY),
  author: ana,
  withdrawn:
    d.status === 'withdrawn'
      ? {
          at: iso(now - 2 * 3600 * 1000),
          by: alex,
          reason: 'Outdated claims on page 4',
          replacement: { id: 12, title: 'Shoulder IFU', url: '/api/library/12/file' },
        }
      : null,
  ...d,
}));

const versions = (doc) =>
  Array.from({ length: doc.version }, (_, i) => {
    const v = i + 1;
    const last = v === doc.version;
    return {
      version: v,
      file_name: `${doc.title.toLowerCase().replace(/\W+/g, '-')}-v${v}.pdf`,
      size: 1_200_000 + v * 80_000,
      note: v === 1 ? 'First edition' : 'Updated figures on page 3',
      author: ana,
      uploaded_at: iso(now - (doc.version - v + 1) * 20 * DAY),
      status: last ? doc.status : 'released',
      submitted_at: last && doc.status === 'draft' ? null : iso(now - (doc.version - v + 1) * 19 * DAY),
      decided_by: last && (doc.status === 'draft' || doc.status === 'in_review') ? null : alex,
      decided_at:
        last && (doc.status === 'draft' || doc.status === 'in_review')
          ? null
          : iso(now - (doc.version - v + 1) * 18 * DAY),
      comment: last && (doc.status === 'draft' || doc.status === 'in_review') ? null : 'Checked against the IFU.',
      released_at:
        last && doc.status !== 'released' && doc.status !== 'withdrawn' && doc.status !== 'expired'
          ? null
          : iso(now - (doc.version - v + 1) * 18 * DAY),
    };
  });

const history = [
  { at: iso(now - 40 * DAY), actor: ana, action: 'created', detail: 'Version 1 uploaded' },
  { at: iso(now - 39 * DAY), actor: ana, action: 'submitted', detail: 'Version 1' },
  { at: iso(now - 38 * DAY), actor: alex, action: 'approved', detail: 'Checked against the IFU.' },
  { at: iso(now - 38 * DAY), actor: null, action: 'released', detail: 'Version 1' },
  { at: iso(now - 2 * 3600 * 1000), actor: alex, action: 'withdrawn', detail: 'Outdated claims on page 4' },
];

const report = {
  id: 100001,
  title: 'Cemented cup brochure 2025',
  state: 'withdrawn',
  at: iso(now - 2 * 3600 * 1000),
  reason: 'Outdated claims on page 4',
  replacement: { id: 12, title: 'Shoulder IFU', url: '/api/library/12/file' },
  holders: [
    {
      user: { id: 'u1', name: 'Riley Rep', email: 'riley@example.com' },
      how: ['opened', 'saved', 'pinned_offline'],
      devices: [
        { device: 'd1', name: 'iPhone 15', purged_at: iso(now - 2 * 3600 * 1000 + 4000) },
        { device: 'd2', name: 'iPad', purged_at: null },
      ],
    },
    { user: { id: 'u2', name: 'Sam Surgeon', email: 'sam@example.com' }, how: ['sent_externally'], devices: [] },
  ],
};

const news = [
  {
    id: 100002,
    title: 'New knee system launched in the US',
    category: 'Products',
    status: 'in_review',
    version: 2,
    release_at: iso(now + 3 * DAY),
    expires_at: null,
    updated_at: iso(now - DAY),
    author: ana,
  },
  {
    id: 41,
    title: 'Congress season 2026',
    category: 'Events',
    status: 'released',
    version: 1,
    release_at: iso(now - 30 * DAY),
    expires_at: iso(now + 60 * DAY),
    updated_at: iso(now - 30 * DAY),
    author: ana,
  },
];

async function mockApi(page, role) {
  await page.addInitScript(
    ([session]) => {
      localStorage.setItem('companion.token', 'test-token');
      localStorage.setItem('companion.session', session);
      localStorage.setItem('companion.push-prompted', 'true');
    },
    [JSON.stringify({ user: user(role), needAcceptTerms: false, onboarding: false, push: false, updateId: null })],
  );
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      const url = new URL(route.request().url());
      const path = url.pathname.replace(/^\/api/, '');
      const method = route.request().method();
      const json = (body, status = 200) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
      if (path === '/users/welcome') return json({ user: user(role), need_accept_terms: false, onboarding: false });
      if (path === '/admin/library' && method === 'GET') {
        const status = url.searchParams.get('status');
        return json({
          items: docs.filter((d) => !status || d.status === status || (status === 'expiring' && d.id === 12)),
        });
      }
      let m = /^\/admin\/library\/(\d+)$/.exec(path);
      if (m) {
        const doc = docs.find((d) => d.id === Number(m[1]));
        return doc ? json({ ...doc, versions: versions(doc) }) : json({ message: 'No such document.' }, 404);
      }
      if (/^\/admin\/library\/\d+\/history$/.test(path)) return json(history);
      if (/^\/admin\/library\/\d+\/withdrawal-report$/.test(path)) return json(report);
      if (/^\/admin\/library\/\d+\/approve$/.test(path))
        return json({ message: 'You cannot approve a version you wrote: another approver must.' }, 403);
      if (path === '/admin/news' && method === 'GET') return json({ items: news });
      m = /^\/admin\/news\/(\d+)$/.exec(path);
      if (m) {
        const item = news.find((n) => n.id === Number(m[1]));
        return json({
          ...item,
          date: '2026-03-01',
          preview: 'Our new knee system is now available to US surgeons.',
          body_html:
            '<p>The <strong>new knee system</strong> is available from today.</p><ul><li>Four sizes</li><li>Two inserts</li></ul>',
          image: null,
          versions: [
            {
              version: 1,
              author: ana,
              status: 'released',
              decided_by: alex,
              decided_at: iso(now - 5 * DAY),
              comment: 'Fine',
              released_at: iso(now - 5 * DAY),
              created_at: iso(now - 6 * DAY),
            },
            {
              version: 2,
              author: ana,
              status: 'in_review',
              decided_by: null,
              decided_at: null,
              comment: null,
              released_at: null,
              created_at: iso(now - DAY),
            },
          ],
        });
      }
      if (/^\/admin\/news\/\d+\/history$/.test(path)) return json(history.slice(0, 3));
      if (method === 'GET') return json({});
      return json({ result: true });
    },
  );
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

async function shot(role, path, name, act) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`${name}: ${error.message}`));
  await mockApi(page, role);
  await page.goto(`${BASE}${path}`);
  await page.getByRole('heading', { name: 'Content console' }).waitFor();
  await page.locator('[data-testid="splash"]').waitFor({ state: 'detached', timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  if (act) await act(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/console-${name}.png`, fullPage: true });
  await context.close();
}

await shot('publisher', '/console', 'library');
await shot('publisher', '/console', 'upload', (page) => page.getByRole('button', { name: 'New document' }).click());
await shot('publisher', '/console', 'upload-errors', async (page) => {
  await page.getByRole('button', { name: 'New document' }).click();
  await page.getByRole('button', { name: 'Upload as draft' }).click();
});
await shot('approver', '/console/library/100004', 'document-refused', async (page) => {
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('form', { name: 'Approve this version' }).getByRole('button', { name: 'Approve' }).click();
});
await shot('approver', '/console/library/100001', 'withdrawn-report');
await shot('publisher', '/console/library/12', 'withdraw', (page) =>
  page.getByRole('button', { name: 'Withdraw' }).click(),
);
await shot('publisher', '/console/library/100003', 'details', (page) =>
  page.getByRole('button', { name: 'Edit details' }).click(),
);
await shot('publisher', '/console/news', 'news');
await shot('publisher', '/console/news/41', 'news-editor');
await shot('user', '/console', 'not-allowed');

await browser.close();
