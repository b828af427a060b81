//! Adversarial edit sequences through the public mesh API, shared by the property tests, the
//! `stress_` runs and the fuzz target (one driver, fed by a seeded RNG or by fuzzer bytes).
//!
//! Besides random edits, the generator aims at the known traps: pillows (a face added again
//! with either winding), parallel edges (flips whose new diagonal exists, splits of pillow
//! edges), collapses that break the link condition, dissolves of vertices that are not
//! interior of degree 3, and dead, out-of-range and garbage ids. [`apply_checked`] asserts the
//! contract after each: an accepted edit leaves a mesh that passes `check()` and logs
//! something; a rejected one leaves the mesh bit-identical and logs nothing.

use crate::Rng;
use quadedge::{Edge, Face, Mesh, MeshError, Vertex, shapes};

/// Where choices come from: a seeded RNG or the bytes of a fuzz input.
pub trait Choices {
    /// A number in `0..n` (0 when `n == 0`).
    fn below(&mut self, n: usize) -> usize;
    /// Any `u32`.
    fn any_u32(&mut self) -> u32;
}

impl Choices for Rng {
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
    fn any_u32(&mut self) -> u32 {
        self.next_u32()
    }
}

/// Choices read from fuzzer bytes; zeros once they run out (so every input is a finite,
/// valid sequence).
#[derive(Debug)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// Have all bytes been used?
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
}

impl Choices for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let raw = if n <= 256 {
            self.byte() as usize
        } else {
            u16::from_le_bytes([self.byte(), self.byte()]) as usize
        };
        raw % n
    }
    fn any_u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
}

/// One public edit, with its arguments resolved to ids (live or not).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EditOp {
    /// [`Mesh::flip`].
    Flip(Edge),
    /// [`Mesh::split`].
    Split(Edge, f32),
    /// [`Mesh::collapse`].
    Collapse(Edge, f32),
    /// [`Mesh::split_face`].
    SplitFace(Face, [f32; 3]),
    /// [`Mesh::dissolve_vertex`].
    Dissolve(Vertex),
    /// [`Mesh::remove_face`].
    RemoveFace(Face),
    /// [`Mesh::add_vertex`].
    AddVertex,
    /// [`Mesh::add_vertices`].
    AddVertices(usize),
    /// [`Mesh::remove_vertex`].
    RemoveVertex(Vertex),
    /// [`Mesh::add_face`].
    AddFace(Vertex, Vertex, Vertex),
    /// [`Mesh::reserve`].
    Reserve(usize),
    /// [`Mesh::compact`].
    Compact,
}

impl EditOp {
    /// Names of the kinds, indexed by [`EditOp::kind`].
    pub const KINDS: [&'static str; 12] = [
        "flip",
        "split",
        "collapse",
        "split_face",
        "dissolve_vertex",
        "remove_face",
        "add_vertex",
        "add_vertices",
        "remove_vertex",
        "add_face",
        "reserve",
        "compact",
    ];

    /// Index of this edit's kind in [`EditOp::KINDS`].
    pub fn kind(&self) -> usize {
        match self {
            EditOp::Flip(_) => 0,
            EditOp::Split(..) => 1,
            EditOp::Collapse(..) => 2,
            EditOp::SplitFace(..) => 3,
            EditOp::Dissolve(_) => 4,
            EditOp::RemoveFace(_) => 5,
            EditOp::AddVertex => 6,
            EditOp::AddVertices(_) => 7,
            EditOp::RemoveVertex(_) => 8,
            EditOp::AddFace(..) => 9,
            EditOp::Reserve(_) => 10,
            EditOp::Compact => 11,
        }
    }
}

/// Number of starting meshes [`start_mesh`] knows.
pub const START_MESHES: usize = 10;

/// A small starting mesh: pillow, lone triangle, closed solids, open disks and strips, a
/// bowtie, or bare vertices to build from.
pub fn start_mesh(k: usize) -> Mesh {
    let (n, t) = match k % START_MESHES {
        0 => (3, vec![[0, 1, 2], [1, 0, 2]]),
        1 => (3, vec![[0, 1, 2]]),
        2 => shapes::tetrahedron(),
        3 => shapes::octahedron(),
        4 => shapes::icosahedron(),
        5 => shapes::disk(6),
        6 => shapes::strip(6),
        7 => shapes::icosahedron_grid(2),
        8 => (5, vec![[0, 1, 2], [0, 3, 4]]),
        _ => (6, vec![]),
    };
    Mesh::from_triangles(n, &t).expect("start shapes build")
}

fn weight(c: &mut impl Choices) -> f32 {
    match c.below(16) {
        0 => f32::NAN,
        1 => -0.5,
        2 => 1.5,
        3 => 0.0,
        4 => 1.0,
        k => k as f32 / 16.0,
    }
}

fn weights3(c: &mut impl Choices) -> [f32; 3] {
    match c.below(8) {
        0 => [f32::NAN, 0.5, 0.5],
        1 => [0.5, 0.5, 0.5],
        2 => [1.0, 0.0, 0.0],
        3 => [-0.25, 0.75, 0.5],
        _ => {
            let a = c.below(9) as f32 / 8.0;
            let b = c.below(9) as f32 / 8.0 * (1.0 - a);
            [a, b, 1.0 - a - b]
        }
    }
}

fn any_edge(m: &Mesh, c: &mut impl Choices) -> Edge {
    match c.below(32) {
        0 => Edge::INVALID,
        1 => Edge::from_raw(c.any_u32()),
        _ => {
            let e = Edge::of_quad(c.below(m.quad_slots() + 1) as u32);
            [e, e.rot(), e.sym(), e.inv_rot()][c.below(4)]
        }
    }
}

fn any_vertex(m: &Mesh, c: &mut impl Choices) -> Vertex {
    match c.below(32) {
        0 => Vertex::INVALID,
        1 => Vertex::new(c.any_u32()),
        _ => Vertex::new(c.below(m.vertex_slots() + 1) as u32),
    }
}

fn any_face(m: &Mesh, c: &mut impl Choices) -> Face {
    match c.below(32) {
        0 => Face::INVALID,
        1 => Face::new(c.any_u32()),
        _ => Face::new(c.below(m.face_slots() + 1) as u32),
    }
}

/// A live face if there is one (else any id).
fn live_face(m: &Mesh, c: &mut impl Choices) -> Face {
    for _ in 0..4 {
        let f = any_face(m, c);
        if m.is_face_alive(f) {
            return f;
        }
    }
    any_face(m, c)
}

/// A live primal edge if there is one (else any id).
fn live_edge(m: &Mesh, c: &mut impl Choices) -> Edge {
    for _ in 0..4 {
        let e = any_edge(m, c);
        if m.is_edge_alive(e) {
            return if e.is_primal() { e } else { e.rot() };
        }
    }
    any_edge(m, c)
}

/// The next edit for `m`, aimed at the traps listed in the module docs about half the time.
/// Keeps meshes small: growth slows down past 150 vertices.
pub fn pick_op(m: &Mesh, c: &mut impl Choices) -> EditOp {
    let big = m.vertex_count() > 150;
    match c.below(24) {
        0..=3 => EditOp::Flip(live_edge(m, c)),
        4 | 5 if !big => EditOp::Split(live_edge(m, c), weight(c)),
        6..=9 => EditOp::Collapse(live_edge(m, c), weight(c)),
        10 if !big => EditOp::SplitFace(live_face(m, c), weights3(c)),
        11 | 12 => EditOp::Dissolve(any_vertex(m, c)),
        13 => EditOp::RemoveFace(live_face(m, c)),
        14 => EditOp::AddVertex,
        15 => EditOp::RemoveVertex(any_vertex(m, c)),
        16 => {
            // A face again, reversed (a pillow attempt) or as it is, or rotated.
            let f = live_face(m, c);
            if !m.is_face_alive(f) {
                return EditOp::AddFace(any_vertex(m, c), any_vertex(m, c), any_vertex(m, c));
            }
            let [a, b, d] = m.face_vertices(f);
            match c.below(3) {
                0 => EditOp::AddFace(b, a, d),
                1 => EditOp::AddFace(a, b, d),
                _ => EditOp::AddFace(d, b, a),
            }
        }
        17 | 18 => {
            // A triangle on an existing edge, towards a neighbour of one end or any vertex.
            let e = live_edge(m, c);
            if !m.is_edge_alive(e) || e.is_dual() {
                return EditOp::AddFace(any_vertex(m, c), any_vertex(m, c), any_vertex(m, c));
            }
            let (a, b) = (m.origin(e), m.dest(e));
            let around: Vec<Vertex> = m.neighbors(b).collect();
            let w = if c.below(2) == 0 && !around.is_empty() {
                around[c.below(around.len())]
            } else {
                any_vertex(m, c)
            };
            if c.below(2) == 0 {
                EditOp::AddFace(b, a, w)
            } else {
                EditOp::AddFace(a, b, w)
            }
        }
        19 => EditOp::AddFace(any_vertex(m, c), any_vertex(m, c), any_vertex(m, c)),
        20 => match c.below(8) {
            0 => EditOp::AddVertices(usize::MAX),
            // Past the vertex id space whatever the mesh holds (never a real allocation).
            1 => EditOp::AddVertices(u32::MAX as usize - c.below(2)),
            2 => EditOp::Reserve(usize::MAX / (1 + c.below(8))),
            3 => EditOp::Reserve(c.below(64)),
            _ => EditOp::AddVertices(c.below(3)),
        },
        21 => EditOp::Compact,
        _ => {
            // Dissolve what a face split just made, or a neighbour of a random vertex.
            let x = any_vertex(m, c);
            let target = if m.is_vertex_alive(x) {
                let around: Vec<Vertex> = m.neighbors(x).collect();
                around
                    .iter()
                    .copied()
                    .find(|&n| m.degree(n) == 3)
                    .unwrap_or(x)
            } else {
                x
            };
            EditOp::Dissolve(target)
        }
    }
}

/// Applies one edit through the public API.
///
/// # Errors
/// Whatever the edit returns.
pub fn apply(m: &mut Mesh, op: EditOp) -> Result<(), MeshError> {
    match op {
        EditOp::Flip(e) => m.flip(e).map(drop),
        EditOp::Split(e, t) => m.split(e, t).map(drop),
        EditOp::Collapse(e, t) => m.collapse(e, t).map(drop),
        EditOp::SplitFace(f, w) => m.split_face(f, w).map(drop),
        EditOp::Dissolve(v) => m.dissolve_vertex(v).map(drop),
        EditOp::RemoveFace(f) => m.remove_face(f),
        EditOp::AddVertex => {
            m.add_vertex();
            Ok(())
        }
        EditOp::AddVertices(n) => m.add_vertices(n).map(drop),
        EditOp::RemoveVertex(v) => m.remove_vertex(v),
        EditOp::AddFace(a, b, c) => m.add_face(a, b, c).map(drop),
        EditOp::Reserve(n) => m.reserve(n),
        EditOp::Compact => {
            m.compact();
            Ok(())
        }
    }
}

/// What [`apply_checked`] saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Edits accepted (each followed by a passing `check()`).
    pub accepted: u64,
    /// Edits rejected (each leaving the mesh bit-identical).
    pub rejected: u64,
    /// Per kind of edit ([`EditOp::KINDS`]): accepted, rejected.
    pub by_kind: [[u64; 2]; 12],
}

impl Tally {
    /// Adds another tally to this one.
    pub fn add(&mut self, other: &Tally) {
        self.accepted += other.accepted;
        self.rejected += other.rejected;
        for (a, b) in self.by_kind.iter_mut().zip(&other.by_kind) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
}

impl core::fmt::Display for Tally {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} accepted, {} rejected", self.accepted, self.rejected)?;
        for (name, [a, r]) in EditOp::KINDS.iter().zip(&self.by_kind) {
            write!(f, "; {name} {a}/{r}")?;
        }
        Ok(())
    }
}

/// Applies `op` to `m`, whose journal is recorded by `rec`, and asserts the contract: an
/// accepted edit leaves a mesh that passes `check()`, a rejected one changes nothing and logs
/// nothing.
///
/// # Panics
/// With the operation and the broken invariant when the contract does not hold.
pub fn apply_checked(
    m: &mut Mesh,
    rec: &quadedge::Recording,
    op: EditOp,
    tally: &mut Tally,
) -> Result<(), MeshError> {
    let before = m.clone();
    let result = apply(m, op);
    let changes = m.take_changes(rec).expect("the journal stays recorded");
    match &result {
        Ok(()) => {
            if let Err(err) = m.check() {
                panic!(
                    "{op:?} was accepted on {} and broke the mesh: {err}",
                    before.describe()
                );
            }
            // The iterators' exact lengths stay truthful.
            assert_eq!(m.vertices().len(), m.vertices().count(), "after {op:?}");
            assert_eq!(m.faces().len(), m.faces().count(), "after {op:?}");
            assert_eq!(m.directed_edges().len(), m.directed_edges().count());
            assert_eq!(m.undirected_edges().len(), m.undirected_edges().count());
            tally.accepted += 1;
            tally.by_kind[op.kind()][0] += 1;
        }
        Err(err) => {
            assert!(
                *m == before,
                "{op:?} was rejected ({err}) but changed the mesh {}",
                before.describe()
            );
            assert!(
                changes.is_empty(),
                "{op:?} was rejected ({err}) but logged {changes:?}"
            );
            tally.rejected += 1;
            tally.by_kind[op.kind()][1] += 1;
        }
    }
    result
}

/// Runs `steps` edits picked from `choices` on start mesh `start`, checking the contract
/// after each (see [`apply_checked`]).
///
/// # Panics
/// When the contract breaks.
pub fn run_sequence(start: usize, steps: usize, choices: &mut impl Choices) -> Tally {
    let mut m = start_mesh(start);
    let rec = m.record_changes().expect("a fresh mesh records");
    let mut tally = Tally::default();
    for _ in 0..steps {
        let op = pick_op(&m, choices);
        let _ = apply_checked(&mut m, &rec, op, &mut tally);
    }
    tally
}
