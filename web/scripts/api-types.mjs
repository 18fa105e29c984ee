// Generates the web app's API types (src/lib/api/schema.d.ts) from the server's OpenAPI document,
// which `companion openapi` prints without a database or a running server.
//
//   node scripts/api-types.mjs            writes src/lib/api/schema.d.ts
//   node scripts/api-types.mjs --check    fails when the checked-in file is not current
//   --document <file>                     reads the document from a file instead of the server
//   --out <file>                          writes there instead
//
// The server binary is $COMPANION_BIN, else $CARGO_TARGET_DIR/debug/companion (target/ by
// default): build it first with `cargo build -p backend --bin companion`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(web, '..');
const checkedIn = resolve(web, 'src/lib/api/schema.d.ts');

const HEADER = `/**
 * The API's types, generated from the server's OpenAPI document by \`npm -w web run api:types\`.
 * Do not edit: change the server and generate again (\`npm run api:check\` tells when it is stale).
 */

`;

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function serverDocument() {
  const targetDir = resolve(root, process.env.CARGO_TARGET_DIR ?? 'target');
  const binary = process.env.COMPANION_BIN ?? resolve(targetDir, 'debug/companion');
  if (!existsSync(binary)) {
    console.error(`api-types: ${binary} is missing; build it with: cargo build -p backend --bin companion`);
    process.exit(2);
  }
  return execFileSync(binary, ['openapi'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export async function generate(documentText) {
  const ast = await openapiTS(JSON.parse(documentText), { alphabetize: true });
  return HEADER + astToString(ast);
}

const documentFile = option('--document');
const text = documentFile ? readFileSync(documentFile, 'utf8') : serverDocument();
const types = await generate(text);

if (process.argv.includes('--check')) {
  const current = existsSync(checkedIn) ? readFileSync(checkedIn, 'utf8') : '';
  if (current !== types) {
    console.error(
      "api-types: web/src/lib/api/schema.d.ts is not the server's current API; run `npm -w web run api:types` and commit it",
    );
    process.exit(1);
  }
  console.log('api-types: web/src/lib/api/schema.d.ts is current');
} else {
  const out = option('--out') ? resolve(option('--out')) : checkedIn;
  writeFileSync(out, types);
  console.log(`api-types: wrote ${out}`);
}
