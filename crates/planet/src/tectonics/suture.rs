//! Suturing: a small continent that runs into a larger one joins it (India's accreted
//! terranes, Avalonia against Laurentia), where a large one is shortened instead
//! ([`super::boundary`]).
//!
//! The colliding plate's continental crust connected to the contact (a flood fill over that
//! plate's continental vertices) is weighed in km², from the cells' areas: under
//! [`SUTURE_MAX_KM2`] the whole terrane is re-plated to the plate it runs into and moves with
//! it from then on; larger, its front is shortened into the other margin. The decision is an
//! area, so every mesh makes it alike (a count of cells would not), and the fill stops once
//! the area is reached, so a large continent costs the threshold's worth of cells per
//! contact, not its size. Connected means within [`SUTURE_STRAIT_KM`] across the sea, not
//! joined by a mesh edge, and a pair of plates is weighed when it first collides: both
//! decisions are then the same at every resolution (docs/benchmark-notes.md, "Plate areas
//! III").

use super::accretion::flat_cell;
use super::{CONTINENTAL, world_ops};
use quadedge::Vertex;
use std::collections::{BTreeMap, VecDeque};
use world::World;

/// Largest continental terrane (km²) that sutures whole onto the plate it collides with:
/// about 1,100 km across, the size of the terranes accreted to North America's west coast
/// or of Avalonia, where India or Arabia (3–4 million km²) keep their plate and shorten.
/// A larger line let more terranes join at one resolution and not at the other (on a coarse
/// mesh a narrow strait closes and a terrane is part of a larger continent): on seeds 2026
/// and 7 (20k against 100k vertices, 40 steps) the worst plate differed by up to 13% at 1.5,
/// 15% at 2 and 68% at 3.5 million km², by up to 9% at 1 million (docs/benchmark-notes.md,
/// "Suturing").
pub const SUTURE_MAX_KM2: f64 = 1_000_000.0;

/// The pairs of plates (the faster, the slower) where a large continent has run into the
/// other plate: from then on the pair's contacts shorten and none sutures. A terrane is
/// weighed when its pair first collides, not again at every step: a large continent
/// shortened at its front fell under [`SUTURE_MAX_KM2`] at a step that depended on the mesh
/// (its area measured within a few percent) and its remnant, just under the line, sutured at
/// one resolution and not yet at the other, moving about 0.2% of the sphere.
pub(super) type Collisions = std::collections::BTreeSet<(u32, u32)>;

/// Whether plate `a` is the faster of `a` and `b` (ties: the higher id), the one whose crust a
/// collision takes up or sutures. Speeds are drawn from the seed, so the choice is the same on
/// every mesh (comparing areas was not, for two plates of nearly equal size).
pub(super) fn faster(plates: &[super::Plate], a: u32, b: u32) -> bool {
    let (pa, pb) = (plates[a as usize], plates[b as usize]);
    pa.omega > pb.omega || (pa.omega == pb.omega && a > b)
}

/// What suturing keeps between steps: the pairs in collision, and per vertex slot the fills'
/// scratch (all unset between calls: only the labelled vertices are reset).
#[derive(Clone, Debug, Default)]
pub(super) struct Sutures {
    /// See [`Collisions`].
    pub collisions: Collisions,
    /// The fill's id (a seed index), or `NONE`.
    labels: Vec<u32>,
    /// The continental vertex a sea vertex was reached from (itself on continents).
    shore: Vec<u32>,
}

/// The small terranes of one step: per contact, the terrane it belongs to if that is under
/// [`SUTURE_MAX_KM2`].
pub(super) struct Terranes {
    /// Per seed, its terrane's index in `members`, or `None` when the terrane is large.
    of_seed: Vec<Option<usize>>,
    /// Each small terrane's vertices, in increasing order.
    members: Vec<Vec<Vertex>>,
}

impl Terranes {
    /// The small terrane holding the `k`-th seed: its index and vertices.
    pub(super) fn of(&self, k: usize) -> Option<(usize, &[Vertex])> {
        self.of_seed[k].map(|t| (t, &self.members[t][..]))
    }
}

/// Widest strait (km) that a terrane's continental crust bridges: two continental regions of
/// one plate closer than this across the sea are one terrane. Without it, whether a terrane
/// was part of a larger continent depended on the mesh (a coarse mesh closes straits and
/// breaks isthmuses a cell wide), and a terrane sutured at one resolution only, moving up to
/// half a percent of the sphere between 100k and 1M vertices. Wider than a cell at 100k
/// vertices (71 km), narrower than the smallest noise features of the continents.
pub const SUTURE_STRAIT_KM: f64 = 150.0;

const NONE: u32 = u32::MAX;

/// The continental terranes that hold `seeds` (each a continental vertex of its plate), by one
/// flood fill from all the seeds at once over each seed's plate, through its continental
/// crust and across straits of its sea up to [`SUTURE_STRAIT_KM`] wide: fills that meet join
/// (union by id), and a joined fill stops once its area reaches [`SUTURE_MAX_KM2`]. Along a
/// long front of a large continent the seeds' fills join within a few cells, so the work is
/// about the threshold's worth of cells per continent, whatever the number of contacts.
/// `spacing_km` is the mesh's: the nearest shore vertices across a strait stand about half a
/// spacing further apart than its coasts (each a quarter of a spacing inland where they are
/// nearest), so the line is the width plus half a spacing (a whole spacing bridged straits up
/// to 200 km wide at 80k vertices and 160 km at 1M: docs/benchmark-notes.md, "Plate areas
/// XII").
pub(super) fn terranes(
    world: &World,
    plate: &[u32],
    crust: &[u8],
    seeds: &[Vertex],
    spacing_km: f64,
    scratch: &mut Sutures,
) -> Terranes {
    let (mesh, pos) = (world.mesh(), world_ops::positions(world));
    let land = |u: Vertex| crust[u.index()] == CONTINENTAL;
    let strait = SUTURE_STRAIT_KM + 0.5 * spacing_km;
    let apart = |a: u32, b: u32| pos[a as usize].distance(pos[b as usize]);
    // Fill ids are seed indices, per vertex in `labels`; `parent` joins them, `area` and
    // `large` are the roots'.
    let Sutures { labels, shore, .. } = scratch;
    if labels.len() < plate.len() {
        labels.resize(plate.len(), NONE);
        shore.resize(plate.len(), NONE);
    }
    let mut labelled: Vec<Vertex> = Vec::new();
    let mut parent: Vec<usize> = (0..seeds.len()).collect();
    let mut area = vec![0.0; seeds.len()];
    let mut large = vec![false; seeds.len()];
    let mut queue = VecDeque::new();
    for (k, &v) in seeds.iter().enumerate() {
        match labels[v.index()] {
            NONE => {
                labels[v.index()] = k as u32;
                shore[v.index()] = v.index() as u32;
                labelled.push(v);
                queue.push_back(v);
            }
            l => parent[k] = l as usize,
        }
    }
    fn find(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    while let Some(v) = queue.pop_front() {
        let mut r = find(&mut parent, labels[v.index()] as usize);
        if large[r] {
            continue;
        }
        if land(v) {
            area[r] += flat_cell(mesh, pos, v);
            large[r] = area[r] >= SUTURE_MAX_KM2;
        }
        let from = shore[v.index()];
        for u in mesh.neighbors(v) {
            if large[r] || plate[u.index()] != plate[v.index()] {
                continue;
            }
            let ui = u.index() as u32;
            // Continent to continent always joins; across the sea, while the far vertex is
            // within the strait's width of the shore the fill left.
            let near = land(v) && land(u) || apart(from, ui) <= strait;
            if !near {
                continue;
            }
            let to = if land(u) { ui } else { from };
            match labels[u.index()] {
                NONE => {
                    labels[u.index()] = r as u32;
                    shore[u.index()] = to;
                    labelled.push(u);
                    queue.push_back(u);
                }
                l => {
                    let q = find(&mut parent, l as usize);
                    let was = shore[u.index()];
                    if q == r {
                        // Nearer to a shore of the same fill: go on from there.
                        if !land(u) && apart(to, ui) < apart(was, ui) {
                            shore[u.index()] = to;
                            queue.push_back(u);
                        }
                    } else if land(u) || apart(from, was) <= strait {
                        // The lower id stays the root (the same whatever the order).
                        let (lo, hi) = (r.min(q), r.max(q));
                        parent[hi] = lo;
                        area[lo] += area[hi];
                        large[lo] = large[lo] || large[hi] || area[lo] >= SUTURE_MAX_KM2;
                        r = lo;
                    }
                }
            }
        }
    }
    // The small terranes: every fill whose root never grew large was filled completely.
    labelled.sort_unstable();
    let mut index: BTreeMap<usize, usize> = BTreeMap::new();
    let mut members: Vec<Vec<Vertex>> = Vec::new();
    for &v in &labelled {
        let r = find(&mut parent, labels[v.index()] as usize);
        labels[v.index()] = NONE;
        if !large[r] && land(v) {
            let t = *index.entry(r).or_insert_with(|| {
                members.push(Vec::new());
                members.len() - 1
            });
            members[t].push(v);
        }
    }
    let of_seed = (0..seeds.len())
        .map(|k| {
            let r = find(&mut parent, k);
            (!large[r]).then(|| index[&r])
        })
        .collect();
    Terranes { of_seed, members }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tectonics::{CRUST, OCEANIC, PLATE, spacing_km, write};
    use glam::DVec3;

    /// One plate; continental caps of 450 and 500 km radius (0.64 and 0.79 million km²,
    /// together over the line) whose edges are `strait_km` apart, on `n` vertices. Is the
    /// terrane holding the first cap's centre small, and how many vertices does it have?
    fn terrane(n: usize, strait_km: f64) -> Option<usize> {
        let r = 6371.0;
        let mut world = World::fibonacci_sphere(n, r, 0.3, 4).unwrap();
        let (ra, rb) = (450.0, 500.0);
        let b = (ra + strait_km + rb) / r;
        let q = DVec3::new(b.cos(), b.sin(), 0.0);
        let km = |p: DVec3, c: DVec3| p.normalize().angle_between(c) * r;
        let all: Vec<Vertex> = world.mesh().vertices().collect();
        let pos = world.positions().to_vec();
        let crust: Vec<u8> = pos
            .iter()
            .map(|&p| {
                if km(p, DVec3::X) < ra || km(p, q) < rb {
                    CONTINENTAL
                } else {
                    OCEANIC
                }
            })
            .collect();
        write(&mut world, &CRUST, &crust).unwrap();
        write(&mut world, &PLATE, &vec![0; pos.len()]).unwrap();
        let seed = *all
            .iter()
            .min_by(|a, b| km(pos[a.index()], DVec3::X).total_cmp(&km(pos[b.index()], DVec3::X)))
            .unwrap();
        let (plate, crust) = (
            world.layer(&PLATE).unwrap().as_slice(),
            world.layer(&CRUST).unwrap().as_slice(),
        );
        let mut scratch = Sutures::default();
        let t = terranes(
            &world,
            plate,
            crust,
            &[seed],
            spacing_km(n, r),
            &mut scratch,
        );
        // The scratch is left unset for the next call.
        assert!(scratch.labels.iter().all(|&l| l == NONE));
        t.of(0).map(|(_, members)| {
            assert!(members.iter().all(|v| crust[v.index()] == CONTINENTAL));
            members.len()
        })
    }

    #[test]
    fn the_strait_line_bridges_the_same_widths_at_every_resolution() {
        // With a whole spacing added to the line, 20k vertices bridged straits up to 220 km
        // wide, 80k up to 200 km, 320k and 1M up to 160 km (10 km steps): the nearest shore
        // vertices across a strait stand about half a spacing further apart than its coasts.
        for n in [20_000, 80_000] {
            assert_eq!(terrane(n, 120.0), None, "{n} vertices: 120 km bridged");
            assert!(
                terrane(n, 180.0).is_some(),
                "{n} vertices: 180 km not bridged"
            );
        }
    }

    #[test]
    fn straits_narrower_than_the_line_join_terranes_at_every_resolution() {
        for n in [20_000, 80_000] {
            // 100 km of sea: one continent of 1.4 million km², over the line, though at 80k
            // no mesh edge crosses the strait.
            assert_eq!(terrane(n, 100.0), None, "{n} vertices");
            // 700 km of sea: the first cap alone, about 0.64 million km².
            let cells = terrane(n, 700.0).expect("a small terrane");
            let area = cells as f64 * 4.0 * std::f64::consts::PI * 6371.0f64.powi(2) / n as f64;
            assert!(
                (area / 0.64e6 - 1.0).abs() < 0.1,
                "{n} vertices: {area} km²"
            );
        }
    }
}
