/// <reference types="node" />
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of eslint.config.js, run by ESLint itself on real files of the tree
 * (with other text): imports flow lib -> components -> features -> app, and a feature reaches
 * its own files but never another feature's.
 */
const eslint = new ESLint({
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  // Only the import rules are asked about: type information would cost half a minute.
  overrideConfig: tseslint.configs.disableTypeChecked,
});

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it("lets a feature import its own files through '@/features/<own>/'", async () => {
    const code = "import { homeKeys } from '@/features/home/api/home-keys';\nexport const keys = homeKeys;\n";
    expect(await restrictedImports('src/features/home/api/get-home-news.ts', code)).toEqual([]);
  });

  it("refuses another feature's files, also one whose name starts the same", async () => {
    const code = [
      "import * as news from '@/features/news/api/get-news';",
      "import * as other from '@/features/home-extra/api';",
      'export const all = [news, other];',
      '',
    ].join('\n');
    const messages = await restrictedImports('src/features/home/api/get-home-news.ts', code);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('The home feature must not import another feature');
  });

  it('keeps lib and components below the features', async () => {
    const fromLib = "import * as news from '@/features/news/api/get-news';\nexport const n = news;\n";
    expect(await restrictedImports('src/lib/dates.ts', fromLib)).toHaveLength(1);
    expect(await restrictedImports('src/components/icons.tsx', fromLib)).toHaveLength(1);
  });

  it('refuses relative imports that climb out of a module', async () => {
    const code = "import { homeKeys } from '../../api/home-keys';\nexport const keys = homeKeys;\n";
    const messages = await restrictedImports('src/features/home/components/HomePage.tsx', code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('Import code outside this module through the "@/" alias.');
  });
});
