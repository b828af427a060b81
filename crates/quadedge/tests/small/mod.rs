//! Short names for the hand-built meshes of the edit tests (`edit.rs`, `edit_remove.rs`).
#![allow(dead_code)]

use quadedge::{Edge, Face, Mesh, Vertex};
use testkit::build;

pub fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

pub fn f(i: u32) -> Face {
    Face::new(i)
}

/// Two triangles sharing the diagonal 0–2.
pub fn square() -> Mesh {
    build((4, vec![[0, 1, 2], [0, 2, 3]]))
}

/// The edge from `a` to `b`; panics (a test failure) when there is none.
pub fn edge(m: &Mesh, a: u32, b: u32) -> Edge {
    m.find_edge(v(a), v(b))
        .unwrap_or_else(|| panic!("no edge v{a}->v{b}"))
}
