// The page: loads manifest.json and mesh.bin (frames.bin once the planet shows), wires the
// controls, and exposes `window.viewer` for the browser tests.

import { Scene } from '/scene.js';
import { colorize, drawLegend, formatValue } from '/colors.js';

const $ = (id) => document.getElementById(id);
const t0 = performance.now();

function typed(layer, buf, offset, n) {
  return layer.kind === 'scalar' ? new Float32Array(buf, offset, n) : new Uint32Array(buf, offset, n);
}

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

async function load() {
  const manifest = await (await fetchOk('/data/manifest.json')).json();
  if (manifest.format !== 'quadworld-view' || manifest.version !== 1) {
    throw new Error('manifest.json is not a quadworld-view version 1 manifest');
  }
  const buf = await (await fetchOk('/data/mesh.bin')).arrayBuffer();
  const n = manifest.vertices;
  const mesh = {
    positions: new Float32Array(buf, 0, 3 * n),
    triangles: new Uint32Array(buf, manifest.mesh.triangles, 3 * manifest.triangles),
    ids: new Uint32Array(buf, manifest.mesh.ids, n),
    coarse: new Uint32Array(buf, manifest.mesh.coarse || 0, 3 * (manifest.mesh.coarse_triangles || 0)),
  };
  const layers = manifest.layers.map((l) => ({ ...l, values: typed(l, buf, l.offset, n) }));
  return { manifest, mesh, layers };
}

/** The per-step values of the frame layers, fetched after the planet is on screen. */
async function loadFrames(manifest, layers) {
  const fr = manifest.frames;
  if (!fr) return [];
  const buf = await (await fetchOk(`/data/${fr.file}`)).arrayBuffer();
  const n = manifest.vertices;
  return fr.steps.map((step, i) => {
    const values = {};
    fr.layers.forEach((name, k) => {
      const layer = layers.find((l) => l.name === name);
      values[name] = typed(layer, buf, i * fr.bytes_per_frame + k * 4 * n, n);
    });
    return { step, values };
  });
}

class Viewer {
  constructor({ manifest, mesh, layers }) {
    this.manifest = manifest;
    this.mesh = mesh;
    this.layers = layers;
    this.frames = [];
    this.frame = -1; // -1: the final state (mesh.bin); otherwise an index into frames
    this.layer = layers.find((l) => l.name === 'elevation') || layers[0];
    this.picked = null;
    this.errors = [];
    this.scene = new Scene($('view'), mesh);
    this.reliefLayer = manifest.relief && layers.find((l) => l.name === manifest.relief.layer);
    this.faceLand();
    this.setupControls();
  }

  /** Turns the planet to show its land first: the camera above the mean direction of the
   * vertices above sea level of the terrain layer, if there is one. */
  faceLand() {
    const terrain = this.layers.find((l) => l.scale && l.scale.terrain !== undefined);
    if (!terrain) return;
    const d = this.scene.dirs;
    const sum = [0, 0, 0];
    terrain.values.forEach((v, i) => {
      if (v > terrain.scale.terrain) {
        sum[0] += d[3 * i]; sum[1] += d[3 * i + 1]; sum[2] += d[3 * i + 2];
      }
    });
    this.scene.lookFrom(sum);
  }

  /** The values of layer `l` in the frame shown. */
  values(l) {
    const f = this.frames[this.frame];
    return (f && f.values[l.name]) || l.values;
  }

  applyRelief() {
    const on = $('relief').checked && this.reliefLayer;
    const ex = Number($('exaggeration').value);
    $('exaggeration-out').textContent = `${ex}×`;
    const k = on ? (ex * this.manifest.relief.scale) / this.scene.radius : 0;
    // Seas are drawn flat at their level (their depth shows in the colours), as on a globe.
    const sea = this.reliefLayer && this.reliefLayer.scale.terrain;
    this.scene.setRelief(on ? this.values(this.reliefLayer) : null, k, sea === undefined ? -Infinity : sea);
  }

  applyColors() {
    colorize(this.layer, this.values(this.layer), this.scene.colors);
    this.scene.colorsChanged();
    drawLegend($('legend'), this.layer, this.values(this.layer));
  }

  /** Shows layer `name`; returns the milliseconds until the new picture is drawn. */
  setLayer(name) {
    const start = performance.now();
    const l = this.layers.find((x) => x.name === name);
    if (!l) throw new Error(`no layer ${name}`);
    this.layer = l;
    $('layer').value = name;
    this.applyColors();
    this.scene.render();
    this.finish();
    if (this.picked) this.showPick(this.picked.index);
    return performance.now() - start;
  }

  /** Shows frame `i` (`frames.length` or -1: the final state). */
  setFrame(i) {
    this.frame = i >= 0 && i < this.frames.length ? i : -1;
    $('time').value = this.frame < 0 ? this.frames.length : this.frame;
    $('time-out').textContent = this.frame < 0 ? 'final' : `step ${this.frames[this.frame].step}`;
    this.applyRelief();
    this.applyColors();
    this.scene.render();
    if (this.picked) this.showPick(this.picked.index);
  }

  /** Waits for the GPU (one pixel read), so timings include the drawing. */
  finish() {
    const gl = this.scene.renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  }

  /** Fills the info panel for vertex (dense index) `v`. */
  showPick(v) {
    const d = this.scene.dirs;
    const lat = (Math.asin(Math.max(-1, Math.min(1, d[3 * v + 1]))) * 180) / Math.PI;
    const lon = (Math.atan2(d[3 * v], d[3 * v + 2]) * 180) / Math.PI;
    const values = {};
    for (const l of this.layers) values[l.name] = this.values(l)[v];
    this.picked = { index: v, id: this.mesh.ids[v], lat, lon, values };
    // Names come from the manifest: escaped, not parsed as markup.
    const esc = (t) => t.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const rows = this.layers.map((l) => `<tr><th>${esc(l.name)}</th><td>${esc(formatValue(l, values[l.name]))}</td></tr>`);
    const ns = lat >= 0 ? 'N' : 'S';
    const ew = lon >= 0 ? 'E' : 'W';
    $('info').innerHTML = `<div class="info-title">vertex ${this.picked.id}</div>`
      + `<div class="info-pos">${Math.abs(lat).toFixed(2)}° ${ns}, ${Math.abs(lon).toFixed(2)}° ${ew}</div>`
      + `<table>${rows.join('')}</table>`;
    $('info').hidden = false;
  }

  setupControls() {
    const select = $('layer');
    for (const l of this.layers) {
      const o = document.createElement('option');
      o.value = l.name;
      o.textContent = l.kind === 'categorical' ? `${l.name} (classes)` : l.name;
      select.append(o);
    }
    select.value = this.layer.name;
    select.addEventListener('change', () => this.setLayer(select.value));
    $('relief').disabled = !this.reliefLayer;
    $('relief').addEventListener('change', () => { this.applyRelief(); this.scene.render(); });
    $('exaggeration').addEventListener('input', () => { this.applyRelief(); this.scene.render(); });
    $('graticule').addEventListener('change', () => {
      this.scene.grid.visible = $('graticule').checked;
      this.scene.render();
    });
    $('time').addEventListener('input', () => this.setFrame(Number($('time').value)));
    const canvas = $('view');
    let down = null;
    canvas.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
    canvas.addEventListener('pointerup', (e) => {
      // A click, not the end of a drag.
      if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
      const v = this.scene.pick(e.clientX, e.clientY);
      if (v >= 0) this.showPick(v);
    });
    $('summary').textContent = `${this.manifest.vertices.toLocaleString('en')} vertices · `
      + `${this.layers.length} layers`;
  }

  async start() {
    this.applyRelief();
    this.applyColors();
    this.scene.render();
    this.finish();
    this.readyMs = performance.now() - t0;
    document.body.dataset.ready = 'planet';
    this.frames = await loadFrames(this.manifest, this.layers);
    const time = $('time');
    time.max = this.frames.length;
    time.value = this.frames.length;
    $('time-row').hidden = this.frames.length === 0;
    document.body.dataset.ready = 'all';
  }
}

load()
  .then((data) => {
    const viewer = new Viewer(data);
    window.viewer = viewer;
    return viewer.start();
  })
  .catch((e) => {
    $('error').textContent = `Could not show the planet: ${e.message}`;
    $('error').hidden = false;
    throw e;
  });
