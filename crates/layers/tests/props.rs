//! Random journals: every layer keeps the length of its element kind, values follow a plain
//! `Vec` reference model, and `Slerp` positions stay on the sphere.

use glam::{DVec3, Vec3};
use layers::{
    AnyLayer, ApplyOutcome, DirectedDualEdgeKind, DirectedEdgeKind, DualEdgeKind, EdgeKind,
    FaceKind, Interpolation, Layer, LayerInfo, OnChange, Sizes, VertexKind,
};
use proptest::prelude::*;
use quadedge::{Change, CollapseRecord, Edge, Face, FlipRecord, Remap, SplitRecord, Vertex};

/// Slot bookkeeping that mimics the mesh's id allocation (free lists, compaction) without
/// topology: enough to produce journals that follow the conventions.
#[derive(Default)]
struct Ids {
    slots: usize,
    free: Vec<u32>,
}

impl Ids {
    fn live(&self) -> Vec<u32> {
        (0..self.slots as u32)
            .filter(|i| !self.free.contains(i))
            .collect()
    }
    fn pick(&self, r: u32) -> Option<u32> {
        let l = self.live();
        (!l.is_empty()).then(|| l[r as usize % l.len()])
    }
    fn alloc(&mut self) -> u32 {
        self.free.pop().unwrap_or_else(|| {
            self.slots += 1;
            self.slots as u32 - 1
        })
    }
    fn remove(&mut self, i: u32) {
        self.free.push(i);
    }
    fn compact(&mut self) -> Vec<u32> {
        let mut next = 0;
        let map = (0..self.slots as u32)
            .map(|i| {
                if self.free.contains(&i) {
                    Remap::DEAD
                } else {
                    next += 1;
                    next - 1
                }
            })
            .collect();
        self.slots = next as usize;
        self.free.clear();
        map
    }
}

#[derive(Default)]
struct Sim {
    v: Ids,
    f: Ids,
    q: Ids,
}

impl Sim {
    fn sizes(&self) -> Sizes {
        Sizes {
            vertices: self.v.slots,
            faces: self.f.slots,
            quads: self.q.slots,
        }
    }

    fn edge(q: u32, r: u32) -> Edge {
        Edge::primal(2 * q + (r & 1))
    }

    /// One event from random numbers; `None` when it does not apply to the current state.
    fn event(&mut self, op: u8, a: u32, b: u32, t: f32) -> Option<Change> {
        Some(match op {
            0 => {
                let count = 1 + a % 3;
                let first = if count == 1 {
                    self.v.alloc()
                } else {
                    self.v.slots += count as usize;
                    (self.v.slots - count as usize) as u32
                };
                Change::VerticesAdded {
                    first: Vertex::new(first),
                    count,
                }
            }
            1 => Change::FaceAdded(Face::new(self.f.alloc())),
            2 => Change::EdgeAdded(Edge::of_quad(self.q.alloc())),
            3 => {
                let i = self.v.pick(a)?;
                self.v.remove(i);
                Change::VertexRemoved(Vertex::new(i))
            }
            4 => {
                let i = self.f.pick(a)?;
                self.f.remove(i);
                Change::FaceRemoved(Face::new(i))
            }
            5 => {
                let i = self.q.pick(a)?;
                self.q.remove(i);
                Change::EdgeRemoved(Edge::of_quad(i))
            }
            6 => Change::Flip(FlipRecord {
                edge: Self::edge(self.q.pick(a)?, b),
                old: [Vertex::new(0); 2],
                new: [Vertex::new(0); 2],
                faces: [
                    self.f.pick(a).map_or(Face::INVALID, Face::new),
                    self.f.pick(b).map_or(Face::INVALID, Face::new),
                ],
            }),
            7 | 8 => {
                let origin = self.v.pick(a)?;
                let dest = self.v.pick(b)?;
                let edge = Self::edge(self.q.pick(a ^ b)?, a);
                let cut = [self.f.pick(a), self.f.pick(b >> 3)];
                let vertex = self.v.alloc();
                let new_edge = Self::edge(self.q.alloc(), b);
                let cross = [Edge::of_quad(self.q.alloc()), Edge::INVALID];
                let mut faces = [(Face::INVALID, Face::INVALID); 2];
                for (k, c) in cut.into_iter().enumerate() {
                    if let Some(c) = c.filter(|_| (b >> k) & 1 == 0) {
                        faces[k] = (Face::new(self.f.alloc()), Face::new(c));
                    }
                }
                Change::Split(SplitRecord {
                    origin: Vertex::new(origin),
                    dest: Vertex::new(dest),
                    t,
                    vertex: Vertex::new(vertex),
                    edge,
                    new_edge,
                    cross_edges: cross,
                    faces,
                })
            }
            9 => {
                let origin = self.v.pick(a)?;
                let dest = self.v.pick(b)?;
                if origin == dest {
                    return None;
                }
                let (survivor, removed) = if a & 1 == 0 {
                    (origin, dest)
                } else {
                    (dest, origin)
                };
                self.v.remove(removed);
                let mut removed_edges = [Edge::INVALID; 3];
                for (k, slot) in removed_edges
                    .iter_mut()
                    .enumerate()
                    .take(1 + (b as usize % 3))
                {
                    if let Some(q) = self.q.pick(a.rotate_left(k as u32 * 7)) {
                        self.q.remove(q);
                        *slot = Edge::of_quad(q);
                    }
                }
                let mut removed_faces = [Face::INVALID; 2];
                for (k, slot) in removed_faces.iter_mut().enumerate() {
                    if let Some(x) = self.f.pick(b.rotate_left(k as u32 * 5)) {
                        self.f.remove(x);
                        *slot = Face::new(x);
                    }
                }
                Change::Collapse(CollapseRecord {
                    origin: Vertex::new(origin),
                    dest: Vertex::new(dest),
                    t,
                    survivor: Vertex::new(survivor),
                    removed: Vertex::new(removed),
                    removed_edges,
                    removed_faces,
                })
            }
            _ => Change::Compact(Remap {
                vertices: self.v.compact(),
                faces: self.f.compact(),
                quads: self.q.compact(),
            }),
        })
    }
}

/// Reference semantics on plain `Vec`s for `OnChange::{Keep, ResetAffected}` and the
/// value-producing interpolations: new/reused ids initial, split vertex blended, split edges
/// and faces copied from their ancestors, collapse survivor blended, compaction permutes.
struct Model<T> {
    values: Vec<T>,
    init: T,
    reset_on_change: bool,
    blend: fn(T, T, f32) -> T,
    kind: layers::ElementKind,
}

impl<T: Copy> Model<T> {
    fn put(&mut self, i: usize, v: T) {
        if i >= self.values.len() {
            self.values.resize(i + 1, self.init);
        }
        self.values[i] = v;
    }
    fn get(&self, i: usize) -> T {
        self.values.get(i).copied().unwrap_or(self.init)
    }
    fn slots(&self, e: Edge) -> Vec<usize> {
        use layers::ElementKind as E;
        match self.kind {
            E::Edge | E::DualEdge => vec![e.quad()],
            E::DirectedEdge | E::DirectedDualEdge => vec![2 * e.quad(), 2 * e.quad() + 1],
            _ => vec![],
        }
    }
    fn changed(&mut self, slots: &[usize]) {
        if self.reset_on_change {
            for &i in slots {
                self.put(i, self.init);
            }
        }
    }
    fn apply(&mut self, c: &Change, sizes: Sizes) {
        use layers::ElementKind as E;
        let k = self.kind;
        match c {
            Change::VerticesAdded { first, count } if k == E::Vertex => {
                for i in first.index()..first.index() + *count as usize {
                    self.put(i, self.init);
                }
            }
            Change::FaceAdded(f) if k == E::Face => self.put(f.index(), self.init),
            Change::EdgeAdded(e) => {
                for i in self.slots(*e) {
                    self.put(i, self.init);
                }
            }
            Change::VertexRemoved(v) if k == E::Vertex => self.changed(&[v.index()]),
            Change::FaceRemoved(f) if k == E::Face => self.changed(&[f.index()]),
            Change::EdgeRemoved(e) => self.changed(&self.slots(*e)),
            Change::Flip(r) if k == E::Face => {
                let fs: Vec<usize> = r
                    .faces
                    .iter()
                    .filter(|f| f.is_valid())
                    .map(|f| f.index())
                    .collect();
                self.changed(&fs);
            }
            Change::Flip(r) => self.changed(&self.slots(r.edge)),
            Change::Split(r) => match k {
                E::Vertex => {
                    let v = (self.blend)(self.get(r.origin.index()), self.get(r.dest.index()), r.t);
                    self.put(r.vertex.index(), v);
                }
                E::Face => {
                    for (n, from) in r.faces {
                        if n.is_valid() {
                            self.put(n.index(), self.get(from.index()));
                        }
                    }
                }
                _ => {
                    let (n, f) = match k {
                        E::DirectedEdge | E::DirectedDualEdge => (
                            vec![r.new_edge.index(), r.new_edge.sym().index()],
                            vec![r.edge.index(), r.edge.sym().index()],
                        ),
                        _ => (vec![r.new_edge.quad()], vec![r.edge.quad()]),
                    };
                    for (a, b) in n.into_iter().zip(f) {
                        self.put(a, self.get(b));
                    }
                    for i in self.slots(r.cross_edges[0]) {
                        self.put(i, self.init);
                    }
                }
            },
            Change::Collapse(r) => match k {
                E::Vertex => {
                    let v = (self.blend)(self.get(r.origin.index()), self.get(r.dest.index()), r.t);
                    self.put(r.survivor.index(), v);
                    self.changed(&[r.removed.index()]);
                }
                E::Face => {
                    let fs: Vec<usize> = r
                        .removed_faces
                        .iter()
                        .filter(|f| f.is_valid())
                        .map(|f| f.index())
                        .collect();
                    self.changed(&fs);
                }
                _ => {
                    for e in r.removed_edges.iter().filter(|e| e.is_valid()) {
                        self.changed(&self.slots(*e));
                    }
                }
            },
            Change::Compact(m) => {
                let (map, per) = match k {
                    E::Vertex => (&m.vertices, 1),
                    E::Face => (&m.faces, 1),
                    E::Edge | E::DualEdge => (&m.quads, 1),
                    _ => (&m.quads, 2),
                };
                let mut out =
                    vec![self.init; per * map.iter().filter(|&&x| x != Remap::DEAD).count()];
                for (i, v) in self.values.iter().enumerate() {
                    if let Some(&n) = map.get(i / per)
                        && n != Remap::DEAD
                    {
                        out[n as usize * per + i % per] = *v;
                    }
                }
                self.values = out;
            }
            _ => {}
        }
        let _ = sizes;
    }
}

fn ops() -> impl Strategy<Value = Vec<(u8, u32, u32, f32)>> {
    prop::collection::vec((0u8..11, any::<u32>(), any::<u32>(), 0.0f32..=1.0), 1..60)
}

fn unit(a: u32) -> Vec3 {
    let x = (a & 0xff) as f32 / 255.0 - 0.5;
    let y = ((a >> 8) & 0xff) as f32 / 255.0 - 0.5;
    let z = ((a >> 16) & 0xff) as f32 / 255.0 - 0.5;
    Vec3::new(x, y, z).try_normalize().unwrap_or(Vec3::Z)
}

proptest! {
    #![proptest_config(testkit::proptest_config(512))]

    #[test]
    fn layers_follow_random_journals(ops in ops(), batch in 1usize..8) {
        let mut sim = Sim::default();
        let reset = OnChange::ResetAffected;
        let mut pos = Layer::new(LayerInfo::<Vec3, VertexKind>::new("pos").initial(Vec3::Z).interpolation(Interpolation::Slerp), 0);
        let mut dpos = Layer::new(LayerInfo::<DVec3, VertexKind>::new("dpos").initial(DVec3::X).interpolation(Interpolation::Slerp), 0);
        let mut height = Layer::new(LayerInfo::<f64, VertexKind>::new("h").initial(-1.0).on_change(reset), 0);
        let mut hm = Model { values: vec![], init: -1.0f64, reset_on_change: true, blend: |a, b, t| a + (b - a) * t as f64, kind: layers::ElementKind::Vertex };
        let mut flow = Layer::new(LayerInfo::<i32, DirectedEdgeKind>::new("flow").initial(-7).interpolation(Interpolation::KeepSrc), 0);
        let mut fm = Model { values: vec![], init: -7, reset_on_change: false, blend: |a, _, _| a, kind: layers::ElementKind::DirectedEdge };
        let mut dist = Layer::new(LayerInfo::<u32, DualEdgeKind>::new("dist").initial(9).on_change(reset).interpolation(Interpolation::MinValue), 0);
        let mut dm = Model { values: vec![], init: 9u32, reset_on_change: true, blend: |a, b, _| a.min(b), kind: layers::ElementKind::DualEdge };
        let mut plate = Layer::new(LayerInfo::<u16, FaceKind>::new("plate").initial(3).on_change(reset).interpolation(Interpolation::MaxWeight), 0);
        let mut pm = Model { values: vec![], init: 3u16, reset_on_change: true, blend: |a, b, t| if 1.0 - t >= t { a } else { b }, kind: layers::ElementKind::Face };
        // Layers only checked for their length.
        let mut others: Vec<Box<dyn AnyLayer>> = vec![
            Box::new(Layer::new(LayerInfo::<bool, EdgeKind>::new("b").interpolation(Interpolation::DontCare).on_change(OnChange::ResetAll), 0)),
            Box::new(Layer::new(LayerInfo::<f32, DirectedDualEdgeKind>::new("f").interpolation(Interpolation::ResetLayer), 0)),
            Box::new(Layer::new(LayerInfo::<u8, FaceKind>::new("u").interpolation(Interpolation::Reset), 0)),
        ];

        let mut journal = Vec::new();
        let mut step = 0u32;
        for (op, a, b, t) in ops {
            let Some(c) = sim.event(op, a, b, t) else { continue };
            journal.push(c);
            if journal.len() < batch {
                continue;
            }
            let sizes = sim.sizes();
            prop_assert_ne!(pos.apply_changes(&journal, sizes), ApplyOutcome::Remove);
            let _ = dpos.apply_changes(&journal, sizes);
            let _ = height.apply_changes(&journal, sizes);
            let _ = flow.apply_changes(&journal, sizes);
            let _ = dist.apply_changes(&journal, sizes);
            let _ = plate.apply_changes(&journal, sizes);
            for l in &mut others {
                prop_assert_ne!(l.apply_changes(&journal, sizes), ApplyOutcome::Remove);
                prop_assert_eq!(l.len(), l.kind().slots(sizes));
            }
            for c in &journal {
                hm.apply(c, sizes);
                fm.apply(c, sizes);
                dm.apply(c, sizes);
                pm.apply(c, sizes);
            }
            hm.values.resize(sizes.vertices, hm.init);
            fm.values.resize(2 * sizes.quads, fm.init);
            dm.values.resize(sizes.quads, dm.init);
            pm.values.resize(sizes.faces, pm.init);
            journal.clear();

            prop_assert_eq!(pos.len(), sizes.vertices);
            prop_assert_eq!(dpos.len(), sizes.vertices);
            prop_assert_eq!(flow.len(), 2 * sizes.quads);
            prop_assert_eq!(dist.len(), sizes.quads);
            prop_assert_eq!(plate.len(), sizes.faces);
            prop_assert_eq!(height.to_vec(), hm.values.clone());
            prop_assert_eq!(flow.to_vec(), fm.values.clone());
            prop_assert_eq!(dist.to_vec(), dm.values.clone());
            prop_assert_eq!(plate.to_vec(), pm.values.clone());
            for (v, p) in pos.entries() {
                prop_assert!((p.length() - 1.0).abs() < 1e-6, "{:?} {:?} {}", v, p, p.length());
            }
            for p in dpos.iter() {
                prop_assert!((p.length() - 1.0).abs() < 1e-12);
            }

            // The user writes between journals: new positions on the sphere, new values.
            step += 1;
            for i in 0..pos.len() {
                if (i as u32 + step).is_multiple_of(3) {
                    let u = unit((i as u32).wrapping_mul(2_654_435_761) ^ step);
                    pos[Vertex::new(i as u32)] = u;
                    dpos[Vertex::new(i as u32)] = u.as_dvec3().normalize();
                    height[Vertex::new(i as u32)] = i as f64 * 0.5;
                    hm.values[i] = i as f64 * 0.5;
                }
            }
            for i in 0..flow.len() {
                flow[Edge::primal(i as u32)] = i as i32 + step as i32;
                fm.values[i] = i as i32 + step as i32;
            }
            for i in 0..dist.len() {
                dist[Edge::of_quad(i as u32).rot()] = (i as u32 * 7 + step) % 11;
                dm.values[i] = (i as u32 * 7 + step) % 11;
            }
            for i in 0..plate.len() {
                plate[Face::new(i as u32)] = (i as u16 + step as u16) % 5;
                pm.values[i] = (i as u16 + step as u16) % 5;
            }
        }
    }
}
