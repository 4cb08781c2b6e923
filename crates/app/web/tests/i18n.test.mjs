// Every word of the page in both languages, with the same parameters, and every key the page
// uses has words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { DICT, LANGS, translate, translator, defaultLang } from '../i18n.js';

const WEB = new URL('../', import.meta.url);
const read = (name) => readFileSync(new URL(name, WEB), 'utf8');
const modules = readdirSync(WEB).filter((f) => f.endsWith('.js'));
const html = read('index.html');
const params = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('both languages have the same keys', () => {
  assert.deepEqual(LANGS, ['en', 'zh']);
  assert.deepEqual(Object.keys(DICT.zh).sort(), Object.keys(DICT.en).sort());
});

test('a key has the same parameters in both languages', () => {
  for (const key of Object.keys(DICT.en)) {
    assert.deepEqual(params(DICT.zh[key]), params(DICT.en[key]), key);
  }
});

test('no words are empty, and the Chinese ones are translated', () => {
  // the same in both: names, formats and figures
  const same = new Set(['opening.swap2', 'eval.side', 'eval.raw', 'exportPsq', 'rules.size']);
  for (const key of Object.keys(DICT.en)) {
    assert.ok(DICT.en[key].trim() && DICT.zh[key].trim(), key);
    if (/[a-z]{4}/i.test(DICT.en[key].replace(/\{\w+\}/g, '')) && !same.has(key)) {
      assert.match(DICT.zh[key], /[\u4e00-\u9fff]|^[\w\s.+-]*$/, key);
    }
  }
});

/** Every key a module names literally: t('key'...), and data-i18n attributes of the page. */
function usedKeys() {
  const keys = new Set();
  for (const f of modules) {
    for (const m of read(f).matchAll(/\bt\(\s*'([\w.-]+)'\s*[,)]/g)) keys.add(m[1]);
  }
  for (const m of html.matchAll(/data-i18n(?:-title|-placeholder)?="([\w.-]+)"/g)) keys.add(m[1]);
  return keys;
}

test('every key the page names has words', () => {
  const keys = usedKeys();
  assert.ok(keys.size > 150, `found ${keys.size} keys`);
  for (const key of keys) assert.ok(DICT.en[key] !== undefined, key);
});

test('every key the page makes from a value has words', () => {
  const rules = [...new Set([...html.matchAll(/<option value="(\w+)" data-i18n="rule\.\w+"/g)].map((m) => m[1]))];
  assert.deepEqual(rules, ['freestyle', 'standard', 'renju', 'caro5', 'caro6']);
  const made = [
    ...rules.map((r) => 'rule.' + r),
    ...['double-three', 'double-four', 'overline'].map((k) => 'foul.' + k),
    ...['best', 'good', 'inaccuracy', 'mistake', 'blunder'].map((v) => 'verdict.' + v),
    ...['three.person', 'three.engine', 'choice3.person', 'choice3.engine', 'five.person',
      'choice5.person', 'choice5.engine'].map((s) => 'op.' + s),
    ...['swap', 'keep', 'declare', 'ten'].map((b) => 'renju.btn.' + b),
    ...['first', 'second', 'black', 'white'].map((w) => 'renju.' + w),
    'black', 'white', 'info.hint', 'info.analysis', 'info.last', 'info.analyzing', 'info.thinking',
    ...['black', 'white', 'draw', 'unknown'].map((o) => 'lib.outcome.' + o),
  ];
  for (const key of made) assert.ok(DICT.en[key] !== undefined, key);
  for (const m of html.matchAll(/data-renju="(\w+)"/g)) assert.ok(DICT.en['renju.btn.' + m[1]], m[1]);
});

/** The Rust sources of the app, where the server's error codes are. */
function rustSources(dir = new URL('../../src/', import.meta.url)) {
  let text = '';
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const url = new URL(e.name + (e.isDirectory() ? '/' : ''), dir);
    if (e.isDirectory()) text += rustSources(url);
    else if (e.name.endsWith('.rs')) text += readFileSync(url, 'utf8');
  }
  return text;
}

test('every word is used, and every error has a code that is sent', () => {
  const code = modules.map(read).join('\n');
  const quoted = new Set([...code.matchAll(/'([\w.-]+)'/g)].map((m) => m[1]));
  const literal = usedKeys();
  // keys the page makes from a value: 'op.' + stage + '.' + actor, 'foul.' + kind, ...
  const made = /^(op\.\w+\.(person|engine)|foul\.[\w-]+|verdict\.\w+|rule\.\w+|renju\.(first|second)|renju\.btn\.\w+)$/;
  const rust = rustSources();
  for (const key of Object.keys(DICT.en)) {
    if (key.startsWith('err.')) {
      const c = key.split('.')[1];
      assert.ok(rust.includes(`"${c}"`) || code.includes(`code: '${c}'`), `no error has the code of ${key}`);
    } else {
      assert.ok(literal.has(key) || quoted.has(key) || made.test(key), `${key} is not used`);
    }
  }
});

test('translate fills parameters, and falls back to English, then to the key', () => {
  assert.equal(translate('en', 'eval.wins', { side: 'Black', n: 5 }), 'Black wins in 5');
  assert.equal(translate('zh', 'eval.wins', { side: '黑方', n: 5 }), '黑方 5 步内胜');
  assert.equal(translate('fr', 'undo'), 'Undo');
  assert.equal(translate('zh', 'no.such.key'), 'no.such.key');
  const t = translator('zh');
  assert.equal(t.lang, 'zh');
  assert.equal(t('undo'), '悔棋');
  assert.equal(defaultLang('zh-TW'), 'zh');
  assert.equal(defaultLang('en-GB'), 'en');
  assert.equal(defaultLang(undefined), 'en');
});
