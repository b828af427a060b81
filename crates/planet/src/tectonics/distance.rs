//! Distance (km) to the nearest of a set of source points, spread over the mesh: each vertex
//! learns the source nearest to it by great-circle distance, not by hops, so the field is the
//! same whatever the vertex spacing.
//!
//! A label-correcting sweep: a vertex taken from the queue offers its source to its
//! neighbours, which keep it when it is nearer to them than what they have (and are queued
//! again). Chord lengths compare (the same order as arcs, cheaper), converted to arcs when
//! read; the sweep keeps squared chords and takes a root only where two squares are too close
//! to tell the order of their rounded roots (so every decision is that of comparing the
//! roots). A first-in first-out queue visits the vertices ring by ring from the sources, so few
//! are improved twice; no heap.
//!
//! The sources split into independent groups: those of different regions (plates) when the
//! sweep is kept within regions (a vertex only ever hears from its own region), and within a
//! region the clusters of sources too far apart for any vertex to be within reach of two of
//! them ([`clusters`]). A group's vertices are touched by its sources only, so the order in
//! which one group's vertices are queued does not depend on the others': the groups run on
//! all cores and the field is the same bit for bit as one queue over everything, whatever the
//! thread count. The arrays are kept from one sweep to the next ([`Sweep`]) and only the
//! vertices a sweep reached are reset (none when its reader cleared them as it read them,
//! [`Sweep::clear`]), so a sweep costs what it reaches, not the mesh's size.

mod clusters;

use glam::DVec3;
use quadedge::{Mesh, Vertex};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// No source within the limit.
pub const FAR: f32 = f32::INFINITY;

/// A source: a point (km, on the sphere) seeded into one vertex, with a tag the caller
/// reads back for each reached vertex.
#[derive(Clone, Copy, Debug)]
pub struct Source {
    pub vertex: Vertex,
    pub point: DVec3,
    pub tag: u32,
}

/// `spread` of every group, the groups taken by the cores as they come free, largest (most
/// sources) first, so that no large group starts last and leaves one core working alone; the
/// results joined in group order (the same for any thread count).
fn largest_first(groups: &[Vec<u32>], spread: impl Fn(&[u32]) -> Vec<u32> + Sync) -> Vec<u32> {
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| (std::cmp::Reverse(groups[g].len()), g));
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads().clamp(1, groups.len().max(1));
    let mut parts: Vec<(usize, Vec<u32>)> = (0..workers)
        .into_par_iter()
        .with_max_len(1)
        .flat_map_iter(|_| {
            let mut mine = Vec::new();
            while let Some(&g) = order.get(next.fetch_add(1, Relaxed)) {
                mine.push((g, spread(&groups[g])));
            }
            mine
        })
        .collect();
    parts.sort_unstable_by_key(|p| p.0);
    let mut reached = Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum());
    for (_, part) in parts {
        reached.extend_from_slice(&part);
    }
    reached
}

/// One vertex slot's state, in one place (one cache line touched per visit). Each slot is
/// written by the one group's sweep that owns it (relaxed atomics: plain loads and stores,
/// no contention, no locked instruction).
struct Slot {
    /// Squared chord (km²) to the vertex's source, as `f64` bits; `+∞` when none.
    key: AtomicU64,
    /// The source (index into the last sweep's sources), [`NONE`] when none.
    src: AtomicU32,
    /// In its group's queue now.
    queued: AtomicBool,
}

impl Slot {
    fn empty() -> Slot {
        Slot {
            key: AtomicU64::new(f64::INFINITY.to_bits()),
            src: AtomicU32::new(NONE),
            queued: AtomicBool::new(false),
        }
    }

    fn key(&self) -> f64 {
        f64::from_bits(self.key.load(Relaxed))
    }
}

/// A source as the spread reads it: its point and its chord limit (km).
#[derive(Clone, Copy)]
struct Reach {
    point: DVec3,
    chord: f64,
    /// Squared chords above this have their root beyond `chord` (`-1` when every one has).
    above: f64,
    /// Squared chords up to this have their root within `chord` (`-1` when none has).
    within: f64,
}

impl Reach {
    fn new(point: DVec3, chord: f64) -> Reach {
        let (above, within) = if chord >= 0.0 {
            let c2 = chord * chord;
            (c2 * SQUARE_MARGIN, c2 / SQUARE_MARGIN)
        } else {
            (-1.0, -1.0)
        };
        Reach {
            point,
            chord,
            above,
            within,
        }
    }

    /// Whether a squared chord `d2` has its (rounded) root within the limit.
    fn holds(&self, d2: f64) -> bool {
        if d2 <= self.within {
            true
        } else if d2 > self.above {
            false
        } else {
            d2.sqrt() <= self.chord
        }
    }
}

/// A square above `x² · SQUARE_MARGIN` has its root above `x` after rounding, and one below
/// `x² / SQUARE_MARGIN` below it (the margin is far above the roundings of a square, a
/// product and a root).
const SQUARE_MARGIN: f64 = 1.0 + 1e-12;

/// Whether the rounded root of the squared chord `d2` is below that of `old2`: told from the
/// squares when they are far enough apart (a root never reverses the order of two squares,
/// but may round two close ones to the same value).
fn nearer(d2: f64, old2: f64) -> bool {
    if d2 >= old2 {
        false
    } else if d2 * SQUARE_MARGIN < old2 {
        true
    } else {
        d2.sqrt() < old2.sqrt()
    }
}

/// The arrays of a sweep, kept between sweeps.
#[derive(Default)]
pub struct Sweep {
    slots: Vec<Slot>,
    /// The slots the last sweep reached (see [`Sweep::reached`]).
    reached: Vec<u32>,
    /// Each source's point and chord limit in the last sweep.
    reach: Vec<Reach>,
    /// Each source's tag in the last sweep.
    tags: Vec<u32>,
    radius_km: f64,
    /// The next sweep leaves `reached` in group order ([`Sweep::unordered`]).
    unordered: bool,
}

impl Clone for Sweep {
    /// A fresh sweep (the arrays are scratch: nothing to copy).
    fn clone(&self) -> Self {
        Sweep::default()
    }
}

impl std::fmt::Debug for Sweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sweep {{ slots: {} }}", self.slots.len())
    }
}

const NONE: u32 = u32::MAX;

impl Sweep {
    /// The great-circle distance (km) from each vertex to its nearest source, up to
    /// `limit_km`, and that source's tag; with `region`, spreading only between vertices of
    /// the same region value. Read back with [`Sweep::dist`], [`Sweep::tag`],
    /// [`Sweep::reached`].
    pub fn run(
        &mut self,
        mesh: &Mesh,
        pos: &[DVec3],
        radius_km: f64,
        sources: &[Source],
        limit_km: f64,
        region: Option<&[u32]>,
    ) {
        self.run_limited(mesh, pos, radius_km, sources, |_| limit_km, region);
    }

    /// For a caller that reads the next sweep's field only by vertex ([`Sweep::dist`],
    /// [`Sweep::tag`]): the same field, but [`Sweep::reached`] then lists the vertices group
    /// by group (the same order for any thread count), not sorted (a sort of every reached
    /// vertex saved). Holds for one sweep: `sweep.unordered().run(…)`.
    pub fn unordered(&mut self) -> &mut Self {
        self.unordered = true;
        self
    }

    /// [`Sweep::run`] with a reach of its own for each source (km): a source offers itself
    /// only to vertices within its reach, so a short-reaching source neither claims nor
    /// shields the vertices beyond it (a farther source with a longer reach takes them).
    pub fn run_limited(
        &mut self,
        mesh: &Mesh,
        pos: &[DVec3],
        radius_km: f64,
        sources: &[Source],
        limit_km: impl Fn(&Source) -> f64,
        region: Option<&[u32]>,
    ) {
        let sorted = !std::mem::take(&mut self.unordered);
        self.reset(mesh.vertex_slots());
        self.radius_km = radius_km;
        // Chord limit for each source's arc limit.
        let chord = |km: f64| {
            let arc = (km / radius_km).min(std::f64::consts::PI);
            2.0 * radius_km * (0.5 * arc).sin()
        };
        let mut reach = std::mem::take(&mut self.reach);
        reach.clear();
        // The limits of consecutive sources are mostly the same (all of them for
        // [`Sweep::run`]): the last one's chord (and its squares) kept, not taken again.
        let mut last: Option<(u64, Reach)> = None;
        reach.extend(sources.iter().map(|s| {
            let km = limit_km(s).to_bits();
            match last {
                Some((k, r)) if k == km => Reach {
                    point: s.point,
                    ..r
                },
                _ => {
                    last.insert((km, Reach::new(s.point, chord(f64::from_bits(km)))))
                        .1
                }
            }
        }));
        self.tags.clear();
        self.tags.extend(sources.iter().map(|s| s.tag));
        let groups = match region {
            // One group per region: plates give the cores enough groups.
            Some(r) => {
                let of: Vec<u32> = sources.iter().map(|s| r[s.vertex.index()]).collect();
                clusters::by_region(&of)
            }
            None => clusters::groups(&reach),
        };
        let s: &Sweep = self;
        let lim = &reach[..];
        let mut reached = largest_first(&groups, |g| s.spread(mesh, pos, sources, lim, g, region));
        if sorted {
            reached.par_sort_unstable();
        }
        self.reached = reached;
        self.reach = reach;
    }

    /// Clears what the last sweep reached now (the next sweep then has nothing to clear),
    /// for a caller with a core to spare before it: the field reads "none" everywhere.
    pub fn forget(&mut self) {
        self.reset(0);
    }

    /// Clears slot `i` (it reads "none" from now on): for a caller that reads the slots of a
    /// sweep once each, on all cores, and clears them as it goes ([`Sweep::cleared`]).
    pub fn clear(&self, i: usize) {
        if let Some(s) = self.slots.get(i)
            && s.src.load(Relaxed) != NONE
        {
            s.key.store(f64::INFINITY.to_bits(), Relaxed);
            s.src.store(NONE, Relaxed);
        }
    }

    /// After [`Sweep::clear`] of every slot below `n`: the next sweep (or
    /// [`Sweep::forget`]) resets only what the last one reached from `n` on.
    pub fn cleared(&mut self, n: usize) {
        self.reached.retain(|&v| v as usize >= n);
    }

    /// Grows the arrays to `n` slots and clears what the last sweep reached.
    fn reset(&mut self, n: usize) {
        let slots = &self.slots;
        self.reached
            .par_iter()
            .with_min_len(1 << 12)
            .filter_map(|&v| slots.get(v as usize))
            .for_each(|slot| {
                slot.key.store(f64::INFINITY.to_bits(), Relaxed);
                slot.src.store(NONE, Relaxed);
            });
        self.reached.clear();
        if self.slots.len() < n {
            let more = n - self.slots.len();
            self.slots.extend((0..more).map(|_| Slot::empty()));
        }
    }

    /// One group's sweep from its sources (indices into `sources`, in input order); returns
    /// the slots it reached.
    fn spread(
        &self,
        mesh: &Mesh,
        pos: &[DVec3],
        sources: &[Source],
        reach: &[Reach],
        group: &[u32],
        region: Option<&[u32]>,
    ) -> Vec<u32> {
        let slots = &self.slots[..];
        let mut reached = Vec::new();
        // First in, first out: a vector read from `head` on (each vertex is queued about
        // once, so nothing is worth reclaiming).
        let mut queue: Vec<u32> = Vec::new();
        let mut offer = |v: usize, old: f64, d2: f64, src: u32, queue: &mut Vec<u32>| {
            let slot = &slots[v];
            if old == f64::INFINITY {
                reached.push(v as u32);
            }
            slot.key.store(d2.to_bits(), Relaxed);
            slot.src.store(src, Relaxed);
            if !slot.queued.load(Relaxed) {
                slot.queued.store(true, Relaxed);
                queue.push(v as u32);
            }
        };
        for &i in group {
            let v = sources[i as usize].vertex.index();
            let r = reach[i as usize];
            let d2 = pos[v].distance_squared(r.point);
            let old = slots[v].key();
            if r.holds(d2) && nearer(d2, old) {
                offer(v, old, d2, i, &mut queue);
            }
        }
        let mut head = 0;
        while let Some(&v) = queue.get(head) {
            head += 1;
            let v = v as usize;
            slots[v].queued.store(false, Relaxed);
            let i = slots[v].src.load(Relaxed);
            let r = reach[i as usize];
            let home = region.map(|r| (r, r[v]));
            for u in mesh.neighbors(Vertex::new(v as u32)) {
                let u = u.index();
                // Most neighbours hold a nearer source already (no root taken for them).
                let d2 = pos[u].distance_squared(r.point);
                let old = slots[u].key();
                if d2 >= old || d2 > r.above {
                    continue;
                }
                // Then the region (read for the few left): a neighbour of another region is
                // skipped either way, so its key, written by another group's sweep meanwhile,
                // changes nothing but which test skips it.
                if home.is_some_and(|(r, h)| r[u] != h) {
                    continue;
                }
                if nearer(d2, old) && r.holds(d2) {
                    offer(u, old, d2, i, &mut queue);
                }
            }
        }
        reached
    }

    /// The distance (km) from vertex slot `i` to its source, [`FAR`] when none was in reach.
    pub fn dist(&self, i: usize) -> f32 {
        let c = self.chord(i);
        if c.is_finite() {
            let r = self.radius_km;
            (2.0 * r * (0.5 * c / r).clamp(0.0, 1.0).asin()) as f32
        } else {
            FAR
        }
    }

    /// A test of whether a slot's source is surely farther than `km`: `true` only when
    /// [`Sweep::dist`] is `≥ km` (or there is none), told from the chord without the arc's
    /// arcsine (a margin of 10⁻⁶ covers every rounding; `false` leaves it open).
    pub fn beyond(&self, km: f64) -> impl Fn(usize) -> bool + '_ {
        let r = self.radius_km;
        let arc = (km * (1.0 + 1e-6) / r).min(std::f64::consts::PI);
        let cut = 2.0 * r * (0.5 * arc).sin();
        // The root taken only for squares too close to the cut's to tell.
        let (lo, hi) = (cut * cut / SQUARE_MARGIN, cut * cut * SQUARE_MARGIN);
        let all = cut < 0.0;
        move |i| {
            let k = self.square(i);
            all || k > hi || (k >= lo && k.sqrt() > cut)
        }
    }

    /// The chord (km) from slot `i` to its source, `+∞` when none.
    fn chord(&self, i: usize) -> f64 {
        self.square(i).sqrt()
    }

    /// The squared chord (km²) from slot `i` to its source, `+∞` when none.
    fn square(&self, i: usize) -> f64 {
        self.slots.get(i).map_or(f64::INFINITY, Slot::key)
    }

    /// The tag of slot `i`'s source, `u32::MAX` when none.
    pub fn tag(&self, i: usize) -> u32 {
        let src = self.slots.get(i).map_or(NONE, |s| s.src.load(Relaxed));
        self.tags.get(src as usize).copied().unwrap_or(NONE)
    }

    /// The slots the last sweep reached, in increasing order (group by group after
    /// [`Sweep::unordered`]).
    pub fn reached(&self) -> &[u32] {
        &self.reached
    }
}

#[cfg(test)]
mod tests;
