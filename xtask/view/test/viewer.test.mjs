// The planet viewer in a real headless Chromium (Debian's, software GL), served by
// `cargo xtask view` on a small demo output; and the demo's glb through the Khronos validator.
//
// Run: `cargo xtask view-test` (or `node --test xtask/view/test/`). Environment:
//   VIEW_DIR=<demo out>    use this output instead of generating a 20,000-vertex demo
//   VIEW_SCREENSHOT=<png>  also save the screenshot there (docs/viewer.png)
//   CHROMIUM=<path>        the browser (default /usr/bin/chromium)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import validator from 'gltf-validator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const artefacts = path.join(root, 'target/view-test');
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

let dir;
let profile;
let server;
let context;
let page;
const problems = [];

/** The demo's view files, read back independently of the page. */
function readView(d) {
  const m = JSON.parse(fs.readFileSync(path.join(d, 'view/manifest.json'), 'utf8'));
  const bin = fs.readFileSync(path.join(d, 'view/mesh.bin'));
  const buf = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length);
  const n = m.vertices;
  const layer = (l, b, off) => (l.kind === 'scalar' ? new Float32Array(b, off, n) : new Uint32Array(b, off, n));
  const view = {
    m,
    positions: new Float32Array(buf, 0, 3 * n),
    ids: new Uint32Array(buf, m.mesh.ids, n),
    layers: Object.fromEntries(m.layers.map((l) => [l.name, layer(l, buf, l.offset)])),
    frames: [],
  };
  if (m.frames) {
    const fb = fs.readFileSync(path.join(d, 'view/frames.bin'));
    const fbuf = fb.buffer.slice(fb.byteOffset, fb.byteOffset + fb.length);
    view.frames = m.frames.steps.map((step, i) => Object.fromEntries(m.frames.layers.map((name, k) => [
      name, layer(m.layers.find((l) => l.name === name), fbuf, i * m.frames.bytes_per_frame + 4 * k * n)])));
  }
  return view;
}

function startServer(d) {
  return new Promise((resolve, reject) => {
    const child = spawn('cargo', ['xtask', 'view', '--port', '0', d], {
      cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b) => {
      out += b;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve({ child, url: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`cargo xtask view exited (${code}): ${out}`)));
  });
}

/** Shares of the globe (not background), ocean-blue and land (green/brown/white) pixels. */
async function pixelStats() {
  const { w, h, data } = await page.evaluate(() => {
    const p = window.viewer.scene.pixels(4);
    return { w: p.w, h: p.h, data: Array.from(p.data) };
  });
  let globe = 0; let ocean = 0; let land = 0;
  const rgb = [];
  // The top left corner is always background.
  const bg = [data[0], data[1], data[2]];
  for (let i = 0; i < w * h; i++) {
    const [r, g, b] = [data[4 * i], data[4 * i + 1], data[4 * i + 2]];
    rgb.push(r, g, b);
    if (Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) < 12) continue;
    globe++;
    if (b > r + 25 && b >= g) ocean++;
    else if (g >= b || r > b) land++;
  }
  return { globe: globe / (w * h), ocean: ocean / globe, land: land / globe, rgb, bg };
}

function changedShare(a, b) {
  let changed = 0;
  for (let i = 0; i < a.length; i += 3) {
    if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 30) changed++;
  }
  return changed / (a.length / 3);
}

before(async () => {
  fs.mkdirSync(artefacts, { recursive: true });
  dir = process.env.VIEW_DIR;
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quadworld-view-'));
    execFileSync('cargo', ['xtask', 'demo', '--vertices', '20000', '--width', '256', '--out', dir],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  server = await startServer(dir);
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'quadworld-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  page = context.pages()[0] || (await context.newPage());
  page.on('console', (m) => {
    // The tests' pixel reads make the GL driver note a stall: a warning about the test.
    const stall = /GL Driver Message .*Performance.*GPU stall due to ReadPixels/.test(m.text());
    if (m.type() === 'error' || (m.type() === 'warning' && !stall)) problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const start = Date.now();
  await page.goto(server.url);
  await page.waitForFunction(() => document.body.dataset.ready === 'all', null, { timeout: 120000 });
  const readyMs = await page.evaluate(() => window.viewer.readyMs);
  console.log(`# page ready (first frame drawn) in ${readyMs.toFixed(0)} ms; frames loaded after ${Date.now() - start} ms`);
});

after(async () => {
  if (context) await context.close();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
  if (server) process.kill(-server.child.pid);
  if (!process.env.VIEW_DIR && dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the globe is drawn with ocean and land and a legend', async () => {
  await page.screenshot({ path: path.join(artefacts, 'first.png') });
  const s = await pixelStats();
  assert.deepEqual(s.bg, [10, 15, 30]);
  // The globe at its starting distance fills about 41% of a 1280×800 view.
  assert.ok(s.globe > 0.3 && s.globe < 0.55, `globe covers ${s.globe}`);
  assert.ok(s.ocean > 0.1, `ocean share ${s.ocean}`);
  assert.ok(s.land > 0.05, `land share ${s.land}`);
  assert.match(await page.textContent('#legend'), /elevation \(m\)/);
});

test('every layer is offered and switching changes the picture', async () => {
  const view = readView(dir);
  const options = await page.$$eval('#layer option', (os) => os.map((o) => o.value));
  assert.deepEqual(options, view.m.layers.map((l) => l.name));
  for (const name of ['elevation', 'plate', 'crust', 'crust_age', 'biome', 'river_discharge']) assert.ok(options.includes(name), name);
  const before = (await pixelStats()).rgb;
  await page.selectOption('#layer', 'plate');
  const after = (await pixelStats()).rgb;
  assert.ok(changedShare(before, after) > 0.1, 'the plate colours differ from the elevation colours');
  assert.match(await page.textContent('#legend'), /plate/);
  // A named layer's legend lists the names of the classes present, in their colours.
  await page.selectOption('#layer', 'biome');
  const legend = await page.textContent('#legend');
  assert.match(legend, /ocean/);
  assert.doesNotMatch(legend, /\b1[0-5]\b/);
  await page.screenshot({ path: path.join(artefacts, 'biome.png') });
  const ms = await page.evaluate(() => ['biome', 'plate', 'elevation'].map((l) => window.viewer.setLayer(l)));
  console.log(`# layer switches ${ms.map((t) => t.toFixed(0)).join(', ')} ms at ${view.m.vertices} vertices`);
});

/** Clicks the vertex nearest to the camera; returns its dense index. */
async function clickCentreVertex(view) {
  const cam = await page.evaluate(() => window.viewer.scene.cameraDir());
  let best = 0; let bestDot = -2;
  const p = view.positions;
  for (let i = 0; i < view.m.vertices; i++) {
    const r = Math.hypot(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    const d = (p[3 * i] * cam[0] + p[3 * i + 1] * cam[1] + p[3 * i + 2] * cam[2]) / r;
    if (d > bestDot) { bestDot = d; best = i; }
  }
  const xy = await page.evaluate((v) => window.viewer.scene.screenOf(v), best);
  await page.mouse.click(xy.x, xy.y);
  return best;
}

test('clicking a cell reports its vertex id, position and every value', async () => {
  const view = readView(dir);
  await page.evaluate(() => window.viewer.setFrame(-1));
  const k = await clickCentreVertex(view);
  const picked = await page.evaluate(() => window.viewer.picked);
  assert.equal(picked.id, view.ids[k]);
  for (const [name, values] of Object.entries(view.layers)) {
    assert.equal(picked.values[name], values[k], name);
  }
  const p = view.positions;
  const r = Math.hypot(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
  assert.ok(Math.abs(picked.lat - (Math.asin(p[3 * k + 1] / r) * 180) / Math.PI) < 1e-3);
  assert.ok(Math.abs(picked.lon - (Math.atan2(p[3 * k], p[3 * k + 2]) * 180) / Math.PI) < 1e-3);
  const info = await page.textContent('#info');
  assert.ok(info.includes(`vertex ${view.ids[k]}`), info);
  // Classes with names show by name: the crust type, not its code.
  const crust = view.m.layers.find((l) => l.name === 'crust');
  assert.ok(crust.classes, 'the crust layer names its classes');
  assert.ok(info.includes(crust.classes[view.layers.crust[k]].name), info);
  // The picture for the README: elevation, relief, graticule, a picked cell.
  const shot = path.join(artefacts, 'viewer.png');
  await page.screenshot({ path: shot });
  if (process.env.VIEW_SCREENSHOT) fs.copyFileSync(shot, path.resolve(root, process.env.VIEW_SCREENSHOT));
});

test('the time slider shows the earlier steps', async () => {
  const view = readView(dir);
  assert.ok(view.frames.length >= 2, 'the demo wrote frames');
  assert.equal(await page.isVisible('#time'), true);
  await page.evaluate(() => window.viewer.setLayer('elevation'));
  const final = (await pixelStats()).rgb;
  await page.$eval('#time', (el) => { el.value = '0'; el.dispatchEvent(new Event('input')); });
  assert.equal(await page.textContent('#time-out'), `step ${view.m.frames.steps[0]}`);
  const first = (await pixelStats()).rgb;
  const share = changedShare(final, first);
  console.log(`# step ${view.m.frames.steps[0]} differs from the end in ${(100 * share).toFixed(1)}% of the pixels`);
  assert.ok(share > 0.01, 'the first step looks different from the end');
  const k = await clickCentreVertex(view);
  const picked = await page.evaluate(() => window.viewer.picked);
  assert.equal(picked.values.elevation, view.frames[0].elevation[k]);
  assert.equal(picked.values.plate, view.frames[0].plate[k]);
  await page.$eval('#time', (el) => { el.value = el.max; el.dispatchEvent(new Event('input')); });
  assert.equal(await page.textContent('#time-out'), 'final');
});

test('no console errors or failed requests', () => {
  assert.deepEqual(problems, []);
});

test('the glb passes the Khronos glTF validator with no errors or warnings', async () => {
  const glb = new Uint8Array(fs.readFileSync(path.join(dir, 'planet.glb')));
  const report = await validator.validateBytes(glb, { maxIssues: 50 });
  const { numErrors, numWarnings } = report.issues;
  assert.equal(numErrors + numWarnings, 0, JSON.stringify(report.issues.messages, null, 1));
});
