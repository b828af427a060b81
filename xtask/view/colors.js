// Colour maps and legends. The stops are those of the export crate's colormap module, so the
// page and the PNGs agree.

const VIRIDIS = [
  [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37],
];
const SEA = [[8, 29, 88], [33, 94, 170], [110, 200, 220]];
const LAND = [
  [56, 132, 64], [120, 160, 80], [150, 130, 80], [125, 100, 75], [160, 160, 160], [250, 250, 250],
];
const NONE = [128, 128, 128];

function sample(stops, t, out, o) {
  const x = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  const a = stops[i];
  const b = stops[i + 1];
  out[o] = a[0] + (b[0] - a[0]) * f;
  out[o + 1] = a[1] + (b[1] - a[1]) * f;
  out[o + 2] = a[2] + (b[2] - a[2]) * f;
}

/** The colour of category `k`: hues a golden angle apart, so neighbours differ. */
export function categoryColor(k, out, o) {
  if (k === 0xffffffff) {
    out[o] = NONE[0]; out[o + 1] = NONE[1]; out[o + 2] = NONE[2];
    return;
  }
  const h = ((k * 137.508) % 360) / 60;
  const s = 0.55;
  const l = 0.42 + 0.16 * ((k * 7) % 3) / 2;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x]
    : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  out[o] = (r + m) * 255; out[o + 1] = (g + m) * 255; out[o + 2] = (b + m) * 255;
}

/** A function from value to RGB (0..255, written into `out` at `o`) for a manifest layer. */
export function colorFn(layer) {
  if (layer.kind === 'categorical') {
    const named = layer.classes || [];
    return (v, out, o) => {
      const c = v < named.length ? named[v].color : null;
      if (c) { out[o] = c[0]; out[o + 1] = c[1]; out[o + 2] = c[2]; } else categoryColor(v, out, o);
    };
  }
  const lo = layer.min;
  const hi = layer.max > layer.min ? layer.max : layer.min + 1;
  if (layer.scale && layer.scale.terrain !== undefined) {
    const sea = layer.scale.terrain;
    return (v, out, o) => {
      if (v < sea) sample(SEA, sea > lo ? (v - lo) / (sea - lo) : 1, out, o);
      else sample(LAND, hi > sea ? (v - sea) / (hi - sea) : 0, out, o);
    };
  }
  return (v, out, o) => sample(VIRIDIS, (v - lo) / (hi - lo), out, o);
}

/** Writes the colours of `values` into `colors` (Uint8, RGBA per vertex; alpha untouched). */
export function colorize(layer, values, colors) {
  const f = colorFn(layer);
  const rgb = [0, 0, 0];
  if (layer.kind === 'categorical' && layer.max < 65536) {
    // One colour per class, looked up: layer switches stay cheap at a million vertices.
    const lut = new Uint8Array(3 * (layer.max + 2));
    for (let k = 0; k <= layer.max; k++) f(k, lut, 3 * k);
    f(0xffffffff, lut, 3 * (layer.max + 1));
    for (let i = 0; i < values.length; i++) {
      const k = 3 * (values[i] <= layer.max ? values[i] : layer.max + 1);
      colors[4 * i] = lut[k];
      colors[4 * i + 1] = lut[k + 1];
      colors[4 * i + 2] = lut[k + 2];
    }
    return;
  }
  for (let i = 0; i < values.length; i++) {
    f(values[i], rgb, 0);
    colors[4 * i] = rgb[0];
    colors[4 * i + 1] = rgb[1];
    colors[4 * i + 2] = rgb[2];
  }
}

/** A class as text: its name when the layer names its classes, else its number. */
function className(layer, v) {
  if (v === 0xffffffff) return 'none';
  const named = layer.classes || [];
  return v < named.length ? named[v].name : String(v);
}

/** A value as text, with its unit. */
export function formatValue(layer, v) {
  if (layer.kind === 'categorical') return className(layer, v);
  const a = Math.abs(v);
  const s = a >= 100 || Number.isInteger(v) ? v.toFixed(0) : a >= 1 ? v.toFixed(2) : v.toPrecision(3);
  return layer.unit ? `${s} ${layer.unit}` : s;
}

const css = (rgb) => `rgb(${rgb.map(Math.round).join(',')})`;

/** Fills `el` with the legend of `layer`: a ramp with its range, or swatches per category. */
export function drawLegend(el, layer, values) {
  el.replaceChildren();
  const title = document.createElement('div');
  title.className = 'legend-title';
  title.textContent = layer.unit ? `${layer.name} (${layer.unit})` : layer.name;
  el.append(title);
  const f = colorFn(layer);
  const rgb = [0, 0, 0];
  if (layer.kind === 'categorical') {
    // Named classes: those present in the values, in class order; else the range of numbers.
    const ids = [];
    if (layer.classes) {
      const seen = new Uint8Array(layer.classes.length);
      for (const v of values) if (v < seen.length) seen[v] = 1;
      seen.forEach((s, k) => { if (s) ids.push(k); });
    } else {
      for (let k = layer.min; k <= layer.max && ids.length < 400; k++) ids.push(k);
    }
    const grid = document.createElement('div');
    grid.className = layer.classes ? 'swatches named' : 'swatches';
    for (const k of ids.slice(0, 24)) {
      f(k, rgb, 0);
      const s = document.createElement('span');
      s.className = 'swatch';
      const dot = document.createElement('i');
      dot.style.background = css(rgb);
      s.append(dot, className(layer, k));
      grid.append(s);
    }
    el.append(grid);
    if (ids.length > 24) {
      const more = document.createElement('div');
      more.className = 'legend-note';
      more.textContent = `+${ids.length - 24} more`;
      el.append(more);
    }
    return;
  }
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 12;
  canvas.className = 'ramp';
  const ctx = canvas.getContext('2d');
  const hi = layer.max > layer.min ? layer.max : layer.min + 1;
  for (let x = 0; x < 256; x++) {
    f(layer.min + ((hi - layer.min) * (x + 0.5)) / 256, rgb, 0);
    ctx.fillStyle = css(rgb);
    ctx.fillRect(x, 0, 1, 12);
  }
  el.append(canvas);
  const labels = document.createElement('div');
  labels.className = 'ramp-labels';
  const mid = layer.scale && layer.scale.terrain !== undefined ? layer.scale.terrain
    : (layer.min + hi) / 2;
  for (const [v, pos] of [[layer.min, 'start'], [mid, 'mid'], [layer.max, 'end']]) {
    const s = document.createElement('span');
    s.textContent = formatValue({ ...layer, unit: '' }, v);
    s.className = pos;
    if (pos === 'mid') s.style.left = `${(100 * (mid - layer.min)) / (hi - layer.min)}%`;
    labels.append(s);
  }
  el.append(labels);
}
