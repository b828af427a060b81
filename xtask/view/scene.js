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

/** A thin blue haze round the limb (a back-face shell, brighter towards its edge). */
function atmosphere() {
  const material = new THREE.ShaderMaterial({
    vertexShader: `varying vec3 vNormal; varying vec3 vView;
      void main() {
        vec4 p = modelViewMatrix * vec4(position, 1.0);
        vNormal = normalize(normalMatrix * normal); vView = normalize(-p.xyz);
        gl_Position = projectionMatrix * p;
      }`,
    fragmentShader: `varying vec3 vNormal; varying vec3 vView;
      void main() {
        // 0 at the shell's silhouette, 1 where it meets the planet's limb.
        float t = clamp(-dot(vNormal, vView) / 0.29, 0.0, 1.0);
        gl_FragColor = vec4(0.3, 0.55, 1.0, 1.0) * pow(t, 2.0) * 0.85;
      }`,
    side: THREE.BackSide,
    blending: THREE.AdditiveBlending,
    transparent: true,
    depthWrite: false,
  });
  return new THREE.Mesh(new THREE.SphereGeometry(1.045, 96, 48), material);
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
  // Drawn over the relief (no depth test), but only on the hemisphere the camera sees: a
  // point p of the unit sphere is in view from c when p·c > 1.
  const m = new THREE.ShaderMaterial({
    vertexShader: `varying float vSeen;
      void main() {
        vec4 w = modelMatrix * vec4(position, 1.0);
        vSeen = dot(normalize(w.xyz), cameraPosition) - 1.0;
        gl_Position = projectionMatrix * viewMatrix * w;
      }`,
    fragmentShader: `varying float vSeen;
      void main() {
        if (vSeen < 0.0) discard;
        gl_FragColor = vec4(1.0, 1.0, 1.0, 0.32 * clamp(vSeen * 4.0, 0.0, 1.0));
      }`,
    transparent: true,
    depthTest: false,
    depthWrite: false,
  });
  const lines = new THREE.LineSegments(g, m);
  lines.renderOrder = 2;
  return lines;
}

/** The triangles in patches by the cube face and cell of their first corner's direction
 * (`side` × `side` cells a face), each with a bounding sphere that leaves room for relief. */
function patches(triangles, dirs, side = 6) {
  const m = triangles.length / 3;
  const cell = new Uint16Array(m);
  const count = new Uint32Array(6 * side * side);
  for (let t = 0; t < m; t++) {
    const v = triangles[3 * t];
    const x = dirs[3 * v];
    const y = dirs[3 * v + 1];
    const z = dirs[3 * v + 2];
    const ax = Math.abs(x);
    const ay = Math.abs(y);
    const az = Math.abs(z);
    const [f, a, u, w] = ax >= ay && ax >= az ? [x > 0 ? 0 : 1, ax, y, z]
      : ay >= az ? [y > 0 ? 2 : 3, ay, z, x] : [z > 0 ? 4 : 5, az, x, y];
    const i = Math.min(side - 1, Math.floor(((u / a + 1) / 2) * side));
    const j = Math.min(side - 1, Math.floor(((w / a + 1) / 2) * side));
    cell[t] = (f * side + j) * side + i;
    count[cell[t]]++;
  }
  const out = [];
  const index = [...count].map((c) => new Uint32Array(3 * c));
  const fill = new Uint32Array(count.length);
  const sum = [...count].map(() => [0, 0, 0]);
  for (let t = 0; t < m; t++) {
    const c = cell[t];
    for (let k = 0; k < 3; k++) index[c][3 * fill[c] + k] = triangles[3 * t + k];
    fill[c]++;
    const v = triangles[3 * t];
    sum[c][0] += dirs[3 * v]; sum[c][1] += dirs[3 * v + 1]; sum[c][2] += dirs[3 * v + 2];
  }
  index.forEach((idx, c) => {
    if (!idx.length) return;
    const len = Math.hypot(...sum[c]) || 1;
    const center = sum[c].map((x) => x / len);
    let r = 0;
    for (const v of idx) {
      r = Math.max(r, Math.hypot(dirs[3 * v] - center[0], dirs[3 * v + 1] - center[1], dirs[3 * v + 2] - center[2]));
    }
    // Relief reaches at most a few tenths of the radius even at full exaggeration.
    // `angle`: the patch's angular radius, for culling patches beyond the horizon.
    out.push({ index: idx, center, radius: r + 0.3, angle: 2 * Math.asin(Math.min(1, r / 2)) });
  });
  return out;
}

/** Camera distances (planet radii) beyond which the coarse mesh is drawn. */
const COARSE_DISTANCE = 2.4;

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

    // One set of vertex buffers shared by every mesh below.
    this.positions = new Float32Array(dirs.length);
    const position = new THREE.BufferAttribute(this.positions, 3);
    // RGBA, not RGB: a 4-byte vertex format is uploaded as is (3 bytes get converted).
    this.colors = new Uint8Array(4 * this.n).fill(255);
    const color = new THREE.BufferAttribute(this.colors, 4, true);
    this.normals = new THREE.BufferAttribute(new Float32Array(dirs.length), 3);
    const shared = (index) => {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', position);
      g.setAttribute('normal', this.normals);
      g.setAttribute('color', color);
      g.setIndex(new THREE.BufferAttribute(index, 1));
      return g;
    };
    // All triangles, for the normals (never drawn itself).
    this.geometry = shared(mesh.triangles);
    const material = new THREE.MeshLambertMaterial({ vertexColors: true });
    // Drawn when zoomed in: the triangles in patches, so those out of view are culled.
    this.fine = new THREE.Group();
    for (const { index, center, radius, angle } of patches(mesh.triangles, dirs)) {
      const g = shared(index);
      g.boundingSphere = new THREE.Sphere(new THREE.Vector3(...center), radius);
      const patch = new THREE.Mesh(g, material);
      patch.userData = { center: new THREE.Vector3(...center), angle };
      this.fine.add(patch);
    }
    this.scene.add(this.fine);
    // Big planets come with a coarser triangulation, drawn while the globe is small on
    // screen (its cells would be under a pixel; software GL pays per triangle).
    this.coarse = null;
    if (mesh.coarse && mesh.coarse.length) {
      this.coarse = new THREE.Mesh(shared(mesh.coarse), material);
      this.coarse.geometry.boundingSphere = new THREE.Sphere(new THREE.Vector3(), 2);
      this.scene.add(this.coarse);
    }
    this.grid = graticule(1.0);
    this.scene.add(this.grid);
    this.scene.add(atmosphere());

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

  /** Puts the camera above direction `d` (not necessarily unit), latitude kept within 35°. */
  lookFrom(d) {
    const len = Math.hypot(d[0], d[1], d[2]);
    if (!(len > 0)) return;
    const lat = Math.max(-0.61, Math.min(0.61, Math.asin(d[1] / len)));
    const lon = Math.atan2(d[0], d[2]);
    const r = this.camera.position.length();
    this.camera.position.set(
      r * Math.cos(lat) * Math.sin(lon), r * Math.sin(lat), r * Math.cos(lat) * Math.cos(lon));
    this.controls.update();
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
    // Normals from all triangles, so the coarse mesh is lit like the fine one.
    this.geometry.computeVertexNormals();
    // Just above the sea (or the sphere), hidden by the land that rises through it.
    this.grid.scale.setScalar(1.0015);
  }

  /** Marks the colours as changed (the caller wrote `this.colors`). */
  colorsChanged() {
    this.geometry.attributes.color.needsUpdate = true;
  }

  /** The meshes drawn from where the camera is. */
  shown() {
    const far = this.coarse && this.camera.position.length() > COARSE_DISTANCE;
    if (this.coarse) this.coarse.visible = far;
    this.fine.visible = !far;
    if (!far) {
      // Patches wholly beyond the horizon (seen from distance d, the sphere's visible cap has
      // angular radius acos(1/d)) are skipped; a margin covers the relief.
      const c = this.camera.position;
      const d = c.length();
      const reach = Math.acos(Math.min(1, 1 / d)) + 0.15;
      for (const p of this.fine.children) {
        const a = Math.acos(Math.max(-1, Math.min(1, p.userData.center.dot(c) / d)));
        p.visible = a - p.userData.angle < reach;
      }
    }
    return far ? [this.coarse] : this.fine.children;
  }

  render() {
    this.shown();
    // The sun follows the camera a little above and to the left, so the lit side faces us.
    const c = this.camera.position;
    this.sun.position.set(c.x - 0.8 * c.z, c.y + 1.5, c.z + 0.8 * c.x);
    this.renderer.render(this.scene, this.camera);
  }

  /** The vertex under the canvas point (x, y) in CSS pixels, or -1: the vertex nearest to
   * where the ray meets the surface drawn. */
  pick(x, y) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    const hit = this.raycaster.intersectObjects(this.shown(), false)[0];
    if (!hit) return -1;
    // Every vertex, not only the hit triangle's corners: the coarse mesh skips most.
    const p = this.positions;
    const { x: hx, y: hy, z: hz } = hit.point;
    let best = -1;
    let bestD = Infinity;
    for (let v = 0; v < this.n; v++) {
      const dx = p[3 * v] - hx;
      const dy = p[3 * v + 1] - hy;
      const dz = p[3 * v + 2] - hz;
      const d = dx * dx + dy * dy + dz * dz;
      if (d < bestD) { bestD = d; best = v; }
    }
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
