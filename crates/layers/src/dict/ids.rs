//! Mesh ids stored in a [`Dict`] follow the mesh's change journal, like layers do.

use super::{Dict, Value};
use quadedge::{Change, Edge, Face, Vertex};
use std::collections::HashMap;

/// An element, with edges named by their quad-edge (both directions and the dual die
/// together).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Element {
    Vertex(u32),
    Face(u32),
    Quad(usize),
}

fn element(v: &Value) -> Option<Element> {
    match v {
        Value::Vertex(x) => Some(Element::Vertex(x.raw())),
        Value::Face(x) => Some(Element::Face(x.raw())),
        Value::Edge(x) => Some(Element::Quad(x.quad())),
        _ => None,
    }
}

/// The elements `c` deletes (reported in `out`), or `false` when it deletes nothing.
fn killed(c: &Change, out: &mut Vec<Element>) -> bool {
    out.clear();
    let v = |x: Vertex| x.is_valid().then_some(Element::Vertex(x.raw()));
    let f = |x: Face| x.is_valid().then_some(Element::Face(x.raw()));
    let e = |x: Edge| x.is_valid().then_some(Element::Quad(x.quad()));
    match c {
        Change::VertexRemoved(x) => out.extend(v(*x)),
        Change::FaceRemoved(x) => out.extend(f(*x)),
        Change::EdgeRemoved(x) => out.extend(e(*x)),
        Change::VertexDissolved(r) => {
            out.extend(v(r.vertex));
            out.extend(r.removed_faces.iter().filter_map(|x| f(*x)));
            out.extend(r.removed_edges.iter().filter_map(|x| e(*x)));
        }
        Change::Stitch(r) => {
            out.extend(r.removed.iter().filter_map(|x| v(*x)));
            out.extend(e(r.removed_edge));
        }
        Change::Collapse(r) => {
            out.extend(v(r.removed));
            out.extend(r.removed_faces.iter().filter_map(|x| f(*x)));
            out.extend(r.removed_edges.iter().filter_map(|x| e(*x)));
        }
        _ => {}
    }
    !out.is_empty()
}

impl Dict {
    /// Makes the mesh ids stored in this dictionary ([`Value::Vertex`], [`Value::Face`],
    /// [`Value::Edge`], at any depth) follow a change journal: `Compact` renumbers them, and
    /// an id whose element the journal deletes (a removal, the vertex, faces and edges a
    /// collapse or a vertex dissolve removes, the vertices and edge a stitch merges away)
    /// becomes [`Value::Null`] — even if the id is later reused by a new
    /// element. Returns whether anything changed.
    ///
    /// Cost: nothing when the journal neither deletes nor compacts; otherwise one walk of the
    /// dictionary plus O(1) per deletion and O(ids) per compaction.
    pub fn apply_changes(&mut self, changes: &[Change]) -> bool {
        if !journal_moves_ids(changes) {
            return false;
        }
        let mut scratch = Vec::new();
        let mut ids = self.id_values();
        if ids.is_empty() {
            return false;
        }
        let mut changed = false;
        let mut by_element: HashMap<Element, Vec<usize>> = HashMap::new();
        let index = |ids: &[&mut Value], map: &mut HashMap<Element, Vec<usize>>| {
            map.clear();
            for (i, v) in ids.iter().enumerate() {
                if let Some(k) = element(v) {
                    map.entry(k).or_default().push(i);
                }
            }
        };
        index(&ids, &mut by_element);
        for c in changes {
            if let Change::Compact(remap) = c {
                for v in ids.iter_mut() {
                    let new = match &**v {
                        Value::Vertex(x) => remap.vertex(*x).map(Value::Vertex),
                        Value::Face(x) => remap.face(*x).map(Value::Face),
                        Value::Edge(x) => remap.edge(*x).map(Value::Edge),
                        _ => continue,
                    };
                    let new = new.unwrap_or(Value::Null);
                    if **v != new {
                        **v = new;
                        changed = true;
                    }
                }
                index(&ids, &mut by_element);
            } else if killed(c, &mut scratch) {
                for k in &scratch {
                    for i in by_element.remove(k).unwrap_or_default() {
                        *ids[i] = Value::Null;
                        changed = true;
                    }
                }
            }
        }
        changed
    }

    /// Every id value, at any depth (iterative walk).
    fn id_values(&mut self) -> Vec<&mut Value> {
        let mut stack: Vec<&mut Value> = self.entries.values_mut().collect();
        let mut ids = Vec::new();
        while let Some(v) = stack.pop() {
            if v.is_id() {
                ids.push(v);
                continue;
            }
            match v {
                Value::List(l) => stack.extend(l.iter_mut()),
                Value::Dict(d) => stack.extend(d.entries.values_mut()),
                _ => {}
            }
        }
        ids
    }
}

impl Dict {
    /// Every mesh id stored, at any depth, in no particular order (iterative walk).
    pub fn ids(&self) -> Vec<&Value> {
        let mut stack: Vec<&Value> = self.entries.values().collect();
        let mut out = Vec::new();
        while let Some(v) = stack.pop() {
            match v {
                Value::List(l) => stack.extend(l),
                Value::Dict(d) => stack.extend(d.entries.values()),
                v if v.is_id() => out.push(v),
                _ => {}
            }
        }
        out
    }

    /// Does any value, at any depth, hold a mesh id?
    pub fn has_ids(&self) -> bool {
        let mut stack: Vec<&Value> = self.entries.values().collect();
        while let Some(v) = stack.pop() {
            match v {
                Value::List(l) => stack.extend(l),
                Value::Dict(d) => stack.extend(d.entries.values()),
                v if v.is_id() => return true,
                _ => {}
            }
        }
        false
    }

    /// The mesh was replaced wholesale: every stored id becomes [`Value::Null`], except
    /// vertex ids when `keep_vertices` (the new mesh numbers vertices like the old one).
    /// Returns whether anything changed.
    pub fn forget_ids(&mut self, keep_vertices: bool) -> bool {
        let mut changed = false;
        for v in self.id_values() {
            if !(keep_vertices && matches!(v, Value::Vertex(_))) {
                *v = Value::Null;
                changed = true;
            }
        }
        changed
    }
}

/// Does `changes` delete or renumber anything (so stored ids may need to follow)?
pub fn journal_moves_ids(changes: &[Change]) -> bool {
    let mut scratch = Vec::new();
    changes
        .iter()
        .any(|c| matches!(c, Change::Compact(_)) || killed(c, &mut scratch))
}
