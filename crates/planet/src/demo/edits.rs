//! The demo's edits: a small region round the first plate's seed is refined (its longest
//! edges split) and coarsened (its shortest edges collapsed), the mesh is flipped back to
//! Delaunay and compacted. Keeping the edits in one region lets the close-up show them all.

use super::{DemoError, PLATE_DISTANCE, POSITION, Report, err};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use std::collections::VecDeque;
use world::World;

/// Vertices in the edited region (fewer on small planets).
const REGION_VERTICES: usize = 300;

/// What the edits did, with every id already renumbered by the final compaction.
pub(super) struct Edited {
    /// Each plate's seed vertex; never collapsed away, so each still exists.
    pub seeds: Vec<Vertex>,
    /// Vertices the edits made or moved (split points, collapse survivors) that still exist.
    pub touched: Vec<Vertex>,
    pub splits: usize,
    pub collapses: usize,
    pub flips: usize,
    /// Vertex slots after compaction.
    pub slots: usize,
    /// Largest `|p| / r − 1` over the vertices after the edits.
    pub max_deviation: f64,
}

impl Edited {
    pub(super) fn report(&self, report: &mut Report) {
        let facts = [
            ("edges split near seed 0", self.splits),
            ("edges collapsed there", self.collapses),
            ("flips back to Delaunay", self.flips),
            ("vertex slots after compact", self.slots),
        ];
        for (what, n) in facts {
            report.facts.push((what.into(), n.to_string()));
        }
        report.facts.push((
            "max |p|/r − 1 after edits".into(),
            format!("{:.1e}", self.max_deviation),
        ));
    }
}

/// Splits the longest and collapses the shortest edges of the region round `seeds[0]`
/// (never an edge at a seed, so every plate keeps its seed), restores the Delaunay property
/// and compacts. Then checks what the policies promise: positions on the sphere, a plate for
/// every vertex, a valid Delaunay mesh.
pub(super) fn edit_around(
    world: &mut World,
    seeds: &[Vertex],
    plates: usize,
    radius: f64,
) -> Result<Edited, DemoError> {
    let positions = world
        .layer(&POSITION)
        .expect("made by the first step")
        .to_vec();
    // A tiny, strongly perturbed point set can leave the centre outside its hull (a face
    // then faces inwards); such a mesh cannot be kept Delaunay on the sphere, so it is left
    // as built.
    let encloses_centre = world.mesh().faces().all(|f| {
        let [p, q, r] = world.mesh().face_vertices(f).map(|v| positions[v.index()]);
        p.dot(q.cross(r)) > 0.0
    });
    let region = if encloses_centre {
        region_edges(world.mesh(), seeds[0], &positions)
    } else {
        Vec::new()
    };
    let mut by_length = region;
    by_length.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n_split = (by_length.len() / 10).clamp(1, 60).min(by_length.len());
    let n_collapse = (by_length.len() / 20).clamp(1, 30).min(by_length.len());
    let mut touched = Vec::new();
    let splits = split_longest(world, &by_length[..n_split], &mut touched);
    let collapses = collapse_shortest(world, &by_length, seeds, n_collapse, &mut touched);
    let positions = world.layer(&POSITION).expect("kept").to_vec();
    let flips = if encloses_centre {
        let mut mesh = world.lock_mesh();
        let flips = delaunay::make_delaunay(&delaunay::Sphere, &mut mesh, &positions)
            .map_err(|e| err("delaunay")(&e))?;
        mesh.commit();
        flips
    } else {
        0
    };
    let remap = world.update_mesh(Mesh::compact);
    let seeds = seeds
        .iter()
        .map(|&s| {
            remap
                .vertex(s)
                .ok_or_else(|| DemoError(format!("seed {s:?} was removed")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut touched: Vec<Vertex> = touched
        .into_iter()
        .filter_map(|v| remap.vertex(v))
        .collect();
    touched.sort();
    touched.dedup();
    reset_lengths_around(world, &touched)?;
    let max_deviation = check(world, plates, radius, encloses_centre)?;
    Ok(Edited {
        seeds,
        touched,
        splits,
        collapses,
        flips,
        slots: world.mesh().vertex_slots(),
        max_deviation,
    })
}

/// Splits the given edges at their middles; returns how many were split, the new vertices
/// going to `touched`.
fn split_longest(world: &mut World, longest: &[(f64, Edge)], touched: &mut Vec<Vertex>) -> usize {
    let mut mesh = world.lock_mesh();
    let mut splits = 0;
    for &(_, e) in longest {
        if let Ok(r) = mesh.split(e, 0.5) {
            touched.push(r.vertex);
            splits += 1;
        }
    }
    mesh.commit();
    splits
}

/// Collapses up to `n_collapse` of the shortest edges of `by_length` (longest first), never
/// one at a seed nor one that would turn a face inwards; returns how many were collapsed, the
/// survivors going to `touched`.
fn collapse_shortest(
    world: &mut World,
    by_length: &[(f64, Edge)],
    seeds: &[Vertex],
    n_collapse: usize,
    touched: &mut Vec<Vertex>,
) -> usize {
    // The splits' new vertices have positions now (the layer's slerp policy).
    let mut pos = world.layer(&POSITION).expect("kept").to_vec();
    let mut mesh = world.lock_mesh();
    let mut is_seed = vec![false; mesh.vertex_slots()];
    for s in seeds {
        is_seed[s.index()] = true;
    }
    let mut collapses = 0;
    // Shortest first; edges the splits replaced are no longer alive and are skipped.
    for &(_, e) in by_length.iter().rev() {
        if collapses == n_collapse {
            break;
        }
        if !mesh.is_edge_alive(e)
            || is_seed[mesh.origin(e).index()]
            || is_seed[mesh.dest(e).index()]
        {
            continue;
        }
        let Some(mid) = collapse_keeps_faces_outward(&mesh, e, &pos) else {
            continue;
        };
        if let Ok(r) = mesh.collapse(e, 0.5) {
            pos[r.survivor.index()] = mid;
            touched.push(r.survivor);
            collapses += 1;
        }
    }
    mesh.commit();
    collapses
}

/// A collapse moves its survivor to the edge's middle, so the edges it keeps change length
/// without being rewired (which the layer's policy would catch): their `plate_distance` is
/// reset here, as the split's new edges were by the policy.
fn reset_lengths_around(world: &mut World, touched: &[Vertex]) -> Result<(), DemoError> {
    let edges: Vec<Edge> = touched
        .iter()
        .flat_map(|&v| world.mesh().outgoing(v))
        .collect();
    let mut dist = world
        .lock_layer(&PLATE_DISTANCE)
        .map_err(|e| err("plate_distance")(&e))?;
    for e in edges {
        dist[e] = *PLATE_DISTANCE.initial_value();
    }
    dist.commit().map_err(|e| err("plate_distance")(&e))
}

/// Where the survivor of collapsing `e` at its middle would sit (the slerp midpoint), if every
/// face that keeps one of the two end points stays facing outwards there; `None` if the
/// collapse would fold a face over (possible on coarse meshes), which no Delaunay repair
/// could undo.
fn collapse_keeps_faces_outward(mesh: &Mesh, e: Edge, pos: &[DVec3]) -> Option<DVec3> {
    let (a, b) = (mesh.origin(e), mesh.dest(e));
    let (pa, pb) = (pos[a.index()], pos[b.index()]);
    let mid = (pa + pb).try_normalize()? * (0.5 * (pa.length() + pb.length()));
    let scale = mid.length_squared() * mid.length();
    for v in [a, b] {
        for f in mesh.vertex_faces(v) {
            let corners = mesh.face_vertices(f);
            if corners.contains(&a) && corners.contains(&b) {
                continue; // removed by the collapse
            }
            let [p, q, r] = corners.map(|c| {
                if c == a || c == b {
                    mid
                } else {
                    pos[c.index()]
                }
            });
            if p.dot(q.cross(r)) <= 1e-9 * scale {
                return None;
            }
        }
    }
    Some(mid)
}

/// `(length, edge)` for each undirected edge between two of the [`REGION_VERTICES`]
/// vertices nearest to `center` by hops (a breadth-first search).
fn region_edges(mesh: &Mesh, center: Vertex, positions: &[DVec3]) -> Vec<(f64, Edge)> {
    let limit = REGION_VERTICES.min(mesh.vertex_count());
    let mut inside = vec![false; mesh.vertex_slots()];
    let mut queue = VecDeque::from([center]);
    inside[center.index()] = true;
    let mut count = 1;
    while let Some(v) = queue.pop_front() {
        for n in mesh.neighbors(v) {
            if count < limit && !inside[n.index()] {
                inside[n.index()] = true;
                count += 1;
                queue.push_back(n);
            }
        }
    }
    mesh.undirected_edges()
        .filter(|&e| inside[mesh.origin(e).index()] && inside[mesh.dest(e).index()])
        .map(|e| {
            let (a, b) = (
                positions[mesh.origin(e).index()],
                positions[mesh.dest(e).index()],
            );
            (a.distance(b), e)
        })
        .collect()
}

/// What the layer policies promise after the edits (and after the plates moved), checked;
/// returns the largest relative distance of a vertex from the sphere.
pub(super) fn check(
    world: &World,
    plates: usize,
    radius: f64,
    delaunay: bool,
) -> Result<f64, DemoError> {
    let pos = world.layer(&POSITION).expect("kept");
    let plate = world.layer(&super::PLATE).expect("kept");
    let mesh = world.mesh();
    let max_dev = mesh
        .vertices()
        .map(|v| (pos[v].length() / radius - 1.0).abs())
        .fold(0.0f64, f64::max);
    if max_dev > 1e-6 {
        return Err(DemoError(format!("positions left the sphere by {max_dev}")));
    }
    if let Some(v) = mesh.vertices().find(|&v| plate[v] as usize >= plates) {
        return Err(DemoError(format!("vertex {v:?} lost its plate")));
    }
    if delaunay {
        delaunay::is_delaunay(&delaunay::Sphere, mesh, pos.as_slice())
            .map_err(|e| DemoError(format!("not Delaunay at {e:?}")))?;
    }
    mesh.check().map_err(|e| err("check")(&e))?;
    Ok(max_dev)
}
