// Every module of the page but the entry (app.js) imports without a page: nothing touches the
// document at import, so the logic can be tested here and the modules load in any order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const WEB = new URL('../', import.meta.url);
const modules = readdirSync(WEB).filter((f) => f.endsWith('.js'));

test('every module but app.js imports in Node', async () => {
  assert.ok(modules.includes('app.js'));
  for (const f of modules.filter((m) => m !== 'app.js')) {
    await assert.doesNotReject(import(new URL(f, WEB).href), f);
  }
});

test('no module reaches the page through window globals', () => {
  for (const f of modules) {
    const code = readFileSync(new URL(f, WEB), 'utf8');
    assert.doesNotMatch(code, /\bwindow\.[A-Z]\w*/, `${f} uses a window global`);
    assert.doesNotMatch(code, /^'use strict';/m, `${f}: modules are strict already`);
  }
});

test('no file of the page is over 500 lines', () => {
  for (const f of readdirSync(WEB).filter((n) => /\.(js|css|html)$/.test(n))) {
    const lines = readFileSync(new URL(f, WEB), 'utf8').split('\n').length;
    assert.ok(lines <= 500, `${f}: ${lines} lines`);
  }
});
