/**
 * The API types: src/api/schema.d.ts, generated from src/api/openapi.json (the back end's OpenAPI
 * schema, committed; `scripts/contract` at the repository's root refreshes both). With --check,
 * nothing is written: the run fails when the committed types are not what the schema generates, so
 * lint, typecheck and build never work from stale types.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const SCHEMA = new URL('../src/api/openapi.json', import.meta.url);
const TYPES = new URL('../src/api/schema.d.ts', import.meta.url);
const HEADER = `/**
 * Generated from openapi.json by \`npm run contract\` (openapi-typescript): do not edit. The back end's
 * schema changed? Run \`scripts/contract\` at the repository's root, which refreshes both files.
 */

`;

async function generate() {
  const schema = JSON.parse(await readFile(SCHEMA, 'utf8'));
  // A field is optional only where the schema says so: answers list every field they always send
  // as required (the back end's AnswerModel), request bodies leave out the ones with a default.
  const ast = await openapiTS(schema, { defaultNonNullable: false });
  return HEADER + astToString(ast);
}

const types = await generate();
if (process.argv.includes('--check')) {
  const committed = await readFile(TYPES, 'utf8').catch(() => '');
  if (committed !== types) {
    console.error(`${fileURLToPath(TYPES)} is not what ${fileURLToPath(SCHEMA)} generates: run \`npm run contract\` (or scripts/contract after an API change) and commit the result.`);
    process.exit(1);
  }
} else {
  await writeFile(TYPES, types);
}
