// The three.js scene: the planet mesh (relief, vertex colours), a graticule, lights, orbit
// controls and picking.

import * as THREE from 'three';
import { OrbitControls } from '/three/OrbitControls.js';

/** Unit directions and mean radius of the positions (the page works on a unit sphere). */
function directions(positions) {
  const n = positions.length / 3;
  const dirs = new Float32Array(positions.length);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = positions[3 * i];
    const y = positions[3 * i + 1];
    const z = positions[3 * i + 2];
    const r = Math.hypot(x, y, z) || 1;
    sum += r;
    dirs[3 * i] = x / r;
    dirs[3 * i + 1] = y / r;
    dirs[3 * i + 2] = z / r;
  }
  return { dirs, radius: sum / n };
}

/** Circles of latitude and longitude every 30 degrees, at `r`. */
function graticule(r) {
  const pts = [];
  const seg = 180;
  const push = (lat, lon) => {
    const c = Math.cos(lat);
    pts.push(r * c * Math.sin(lon), r * Math.sin(lat), r * c * Math.cos(lon));
  };
  for (let lat = -60; lat <= 60; lat += 30) {
    for (let k = 0; k < seg; k++) {
      push((lat * Math.PI) / 180, (2 * Math.PI * k) / seg);
      push((lat * Math.PI) / 180, (2 * Math.PI * (k + 1)) / seg);
    }
  }
  for (let lon = 0; lon < 360; lon += 30) {
    for (let k = 0; k < seg / 2; k++) {
      push(-Math.PI / 2 + (Math.PI * k) / (seg / 2), (lon * Math.PI) / 180);
      push(-Math.PI / 2 + (Math.PI * (k + 1)) / (seg / 2), (lon * Math.PI) / 180);
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
  const m = new THREE.LineBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.28 });
  return new THREE.LineSegments(g, m);
}

export class Scene {
  constructor(canvas, mesh) {
    const { dirs, radius } = directions(mesh.positions);
    this.dirs = dirs;
    this.radius = radius;
    this.n = dirs.length / 3;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: false });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    // The colours are sRGB already (as in the PNGs): draw them without a second conversion.
    this.renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
    this.renderer.setClearColor(new THREE.Color().setRGB(10 / 255, 15 / 255, 30 / 255, THREE.LinearSRGBColorSpace));
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.01, 100);
    // Start above 20°N, 10°E (latitude/longitude as in export::heightmap: +y north).
    const lat = (20 * Math.PI) / 180;
    const lon = (10 * Math.PI) / 180;
    this.camera.position.set(
      3.6 * Math.cos(lat) * Math.sin(lon), 3.6 * Math.sin(lat), 3.6 * Math.cos(lat) * Math.cos(lon));
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.minDistance = 1.08;
    this.controls.maxDistance = 12;
    this.controls.zoomSpeed = 0.8;
    this.controls.addEventListener('change', () => this.render());

    this.geometry = new THREE.BufferGeometry();
    this.positions = new Float32Array(dirs.length);
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.colors = new Uint8Array(dirs.length);
    this.geometry.setAttribute('color', new THREE.BufferAttribute(this.colors, 3, true));
    this.geometry.setIndex(new THREE.BufferAttribute(mesh.triangles, 1));
    const material = new THREE.MeshLambertMaterial({ vertexColors: true });
    this.mesh = new THREE.Mesh(this.geometry, material);
    this.scene.add(this.mesh);
    this.grid = graticule(1.0);
    this.scene.add(this.grid);

    this.marker = new THREE.Mesh(
      new THREE.SphereGeometry(0.008, 12, 8),
      new THREE.MeshBasicMaterial({ color: 0xff3366 }));
    this.marker.visible = false;
    this.scene.add(this.marker);

    this.scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x303048, 1.9));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.2);
    this.scene.add(this.sun);
    this.raycaster = new THREE.Raycaster();
    this.resize();
    window.addEventListener('resize', () => { this.resize(); this.render(); });
  }

  resize() {
    const c = this.renderer.domElement;
    const w = c.clientWidth || window.innerWidth;
    const h = c.clientHeight || window.innerHeight;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  /** Moves the vertices to `1 + k * max(relief, floor)` along their directions (`relief` may
   * be null: a smooth sphere). */
  setRelief(relief, k, floor) {
    const p = this.positions;
    const d = this.dirs;
    const base = relief && floor > -Infinity ? k * floor : 0;
    for (let i = 0; i < this.n; i++) {
      const r = relief ? 1 + k * Math.max(relief[i], floor) - base : 1;
      p[3 * i] = d[3 * i] * r;
      p[3 * i + 1] = d[3 * i + 1] * r;
      p[3 * i + 2] = d[3 * i + 2] * r;
    }
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeVertexNormals();
    this.geometry.computeBoundingSphere();
    // Just above the sea (or the sphere), hidden by the land that rises through it.
    this.grid.scale.setScalar(1.0015);
  }

  /** Marks the colours as changed (the caller wrote `this.colors`). */
  colorsChanged() {
    this.geometry.attributes.color.needsUpdate = true;
  }

  render() {
    // The sun follows the camera a little above and to the left, so the lit side faces us.
    const c = this.camera.position;
    this.sun.position.set(c.x - 0.8 * c.z, c.y + 1.5, c.z + 0.8 * c.x);
    this.renderer.render(this.scene, this.camera);
  }

  /** The vertex under the canvas point (x, y) in CSS pixels, or -1: the corner nearest to
   * where the ray meets the surface. */
  pick(x, y) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    const hit = this.raycaster.intersectObject(this.mesh, false)[0];
    if (!hit) return -1;
    const f = hit.face;
    let best = -1;
    let bestD = Infinity;
    for (const v of [f.a, f.b, f.c]) {
      const p = this.positions;
      const d = Math.hypot(p[3 * v] - hit.point.x, p[3 * v + 1] - hit.point.y, p[3 * v + 2] - hit.point.z);
      if (d < bestD) { bestD = d; best = v; }
    }
    const p = this.positions;
    this.marker.position.set(p[3 * best], p[3 * best + 1], p[3 * best + 2]);
    this.marker.visible = true;
    this.render();
    return best;
  }

  /** Where vertex `v` is drawn, in CSS pixels of the page. */
  screenOf(v) {
    const p = new THREE.Vector3(
      this.positions[3 * v], this.positions[3 * v + 1], this.positions[3 * v + 2]);
    p.project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
  }

  /** The camera's direction from the centre (unit). */
  cameraDir() {
    const c = this.camera.position.clone().normalize();
    return [c.x, c.y, c.z];
  }

  /** RGBA pixels of a fresh render, downsampled by `step` (for the tests' pixel counts). */
  pixels(step = 4) {
    this.render();
    const src = this.renderer.domElement;
    const w = Math.floor(src.width / step);
    const h = Math.floor(src.height / step);
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d');
    ctx.drawImage(src, 0, 0, w, h);
    return { w, h, data: ctx.getImageData(0, 0, w, h).data };
  }
}
