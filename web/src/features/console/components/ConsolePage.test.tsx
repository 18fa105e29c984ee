// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '@/lib/session/store';
import type { Role } from '@/lib/session/types';
import ConsolePage from './ConsolePage';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const OWN_VERSION = 'You cannot approve a version you wrote: another approver must.';

const ana = { id: 'u1', name: 'Ana Publisher' };
const doc = {
  id: 100004,
  title: 'Knee system surgical technique',
  status: 'in_review',
  version: 2,
  released_version: 1,
  audience: 'all',
  labels: ['controlled_release'],
  products: [],
  programmes: [],
  category: null,
  release_at: null,
  expires_at: null,
  updated_at: '2026-03-01T10:00:00Z',
  author: ana,
  withdrawn: null,
  versions: [],
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let container: HTMLDivElement;
let root: Root;
let calls: { method: string; path: string; body: unknown }[];

function serve(path: string, method: string): Response {
  if (method === 'GET' && path === '/api/admin/library/100004') return json(doc);
  if (method === 'GET' && path === '/api/admin/library/100004/history') return json([]);
  if (method === 'GET' && path === '/api/admin/library') return json({ items: [doc] });
  if (method === 'POST' && path === '/api/admin/library/100004/approve') return json({ message: OWN_VERSION }, 403);
  return json({ message: 'Not found' }, 404);
}

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      calls.push({ method, path: url.pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
      return Promise.resolve(serve(url.pathname, method));
    }),
  );
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

async function render(role: Role, path: string) {
  useSession.setState({
    user: {
      id: 'me',
      email: `${role}@example.com`,
      first_name: 'Me',
      last_name: 'Myself',
      certificate: null,
      teams: null,
      role,
      show_us: false,
    },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/console', element: <ConsolePage /> },
      { path: '/console/library/:id', element: <ConsolePage /> },
    ],
    { initialEntries: [path] },
  );
  const tree: ReactNode = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  act(() => root.render(tree));
  await settle();
}

async function settle() {
  for (let i = 0; i < 5; i += 1) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

function button(name: string): HTMLButtonElement | undefined {
  return [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
}

describe('the content console', () => {
  it('keeps out everyone but publishers, approvers and auditors', async () => {
    await render('user', '/console');
    expect(container.textContent).toContain('Only publishers, approvers and auditors can use the console');
    expect(calls).toEqual([]);
  });

  it('shows a refused approval with the server message as it is', async () => {
    await render('approver', '/console/library/100004');
    expect(container.textContent).toContain('Knee system surgical technique');
    expect(button('Submit for approval')).toBeUndefined();
    expect(button('New version')).toBeUndefined();

    act(() => button('Approve')?.click());
    const form = container.querySelector('form[aria-label="Approve this version"]');
    const submit = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
    act(() => submit?.click());
    await settle();

    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/admin/library/100004/approve' });
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(OWN_VERSION);
  });

  it('gives publishers no decision and auditors no step at all', async () => {
    await render('publisher', '/console/library/100004');
    expect(button('Approve')).toBeUndefined();
    expect(button('Withdraw')).toBeDefined();
    act(() => root.unmount());
    root = createRoot(container);
    await render('auditor', '/console/library/100004');
    expect(container.textContent).toContain('Knee system surgical technique');
    expect(container.querySelector('[aria-label="Steps"]')).toBeNull();
  });

  it('asks for a reason before a rejection reaches the server', async () => {
    await render('approver', '/console/library/100004');
    act(() => button('Reject')?.click());
    const form = container.querySelector('form[aria-label="Reject this version"]');
    act(() => form?.querySelector<HTMLButtonElement>('button[type="submit"]')?.click());
    expect(container.textContent).toContain('Say what must change.');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
