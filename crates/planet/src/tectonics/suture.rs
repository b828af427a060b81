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
//! contact, not its size.

use super::plates::cell_area;
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

/// The flood fills of one step: each vertex a fill reached, with the fill's number.
#[derive(Default)]
pub(super) struct Fills {
    seen: BTreeMap<Vertex, usize>,
    count: usize,
}

impl Fills {
    /// The continental terrane of plate `a` holding `seed` (in increasing order) if it is
    /// under [`SUTURE_MAX_KM2`] and no fill of this step met it before; `None` otherwise.
    pub(super) fn small_terrane(
        &mut self,
        world: &World,
        plate: &[u32],
        crust: &[u8],
        radius_km: f64,
        seed: Vertex,
    ) -> Option<Vec<Vertex>> {
        if self.seen.contains_key(&seed) {
            return None;
        }
        let (mesh, pos) = (world.mesh(), world_ops::positions(world));
        let a = plate[seed.index()];
        let mine = |u: Vertex| plate[u.index()] == a && crust[u.index()] == CONTINENTAL;
        let mut found = vec![seed];
        let mut queue = VecDeque::from([seed]);
        let mut area = 0.0;
        let mut small = mine(seed);
        let fill = self.count;
        self.count += 1;
        self.seen.insert(seed, fill);
        while let Some(v) = queue.pop_front() {
            area += cell_area(mesh, pos, v, radius_km);
            if area >= SUTURE_MAX_KM2 || !small {
                small = false;
                break;
            }
            for u in mesh.neighbors(v) {
                if !mine(u) {
                    continue;
                }
                match self.seen.get(&u) {
                    // A terrane that an earlier fill gave up on as too large (a small one
                    // is a whole connected terrane: this fill cannot reach it).
                    Some(&f) if f != fill => small = false,
                    Some(_) => {}
                    None => {
                        self.seen.insert(u, fill);
                        found.push(u);
                        queue.push_back(u);
                    }
                }
            }
        }
        if !small {
            return None;
        }
        found.sort_unstable();
        Some(found)
    }
}
