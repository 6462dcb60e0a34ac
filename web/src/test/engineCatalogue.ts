// The engine's own catalogue, read from its wasm build (web/wasm-pkg, made by
// scripts/build-wasm.sh; `npm test` builds it before the unit tests), so that the fake engine
// and the tests of the edit functions use the engine's ranges, defaults and lists instead of a
// copy of them that could drift.

import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Catalogue } from '../contract/engine';
import { repoFile } from './fakes';

const js = repoFile('web/wasm-pkg/abr_wasm.js');
const wasm = repoFile('web/wasm-pkg/abr_wasm_bg.wasm');
if (!existsSync(js) || !existsSync(wasm)) {
  throw new Error('the engine is not built (web/wasm-pkg): run `bash scripts/build-wasm.sh` before the unit tests');
}
const pkg = (await import(/* @vite-ignore */ pathToFileURL(js).href)) as {
  initSync(opts: { module: BufferSource }): unknown;
  catalogue(): string;
};
pkg.initSync({ module: readFileSync(wasm) });

export const ENGINE_CATALOGUE: Catalogue = JSON.parse(pkg.catalogue());
