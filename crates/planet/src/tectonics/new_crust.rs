//! New ocean floor where plates moved apart: after the motion, the wide triangles across
//! opening boundaries get a vertex each, dated from the ridge axis ([`super::ridge`]), in
//! rounds so that wide gaps fill row by row.

use super::band;
use super::ridge;
use super::{
    AGE, CRUST, ELEVATION, OCEANIC, OROGENY, PLATE, Params, Plate, RIDGE, TectonicsError, orogeny,
    slice, world_ops,
};
use glam::DVec3;
use quadedge::{Edge, Face, Vertex};
use rayon::prelude::*;
use world::{ColumnId, NewValues, World};

mod search;
use search::{Cornered, Known, Search, Wide, faces_around, floor_at, merged, wide_at, wide_gaps};

/// Depth of new crust at a ridge (m).
pub const RIDGE_DEPTH_M: f32 = -2600.0;

/// Rounds of new crust per step: a gap opened by fast plates on a fine mesh is several
/// cells wide, and each round fills one row.
const ROUNDS: usize = 12;

/// The new crust's working arrays, kept between steps: per vertex slot, the index of the
/// vertex's entry among this step's new crust (or `NONE`), and the marks of a round.
#[derive(Clone, Debug, Default)]
pub(super) struct Buffers {
    fresh: Vec<u32>,
    /// One bit per vertex slot: set where `fresh` holds an entry (a small array the gap
    /// search reads for every corner, instead of the large one).
    fresh_bits: Vec<u64>,
    used: Vec<u64>,
    marked: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// The least work worth a parallel phase, in items of each phase: below it a phase runs on
/// the stepping thread. On two cores a phase pays for waking the other core and, when that
/// core took a piece, for waiting on it; the creation's rounds are short (100–800 points),
/// so most of their phases cost more than they saved, and the stage ran slower on two
/// threads than on one (see the notes, "Creation IX"). The counts are about half a
/// millisecond of one core's work (measured at 500k on one thread): a point's floor about
/// 0.26 µs, a new vertex's faces about 1 µs, a skipped face's check about 0.1 µs.
const PAR_FLOORS: usize = 2048;
const PAR_NEW_FACES: usize = 512;
const PAR_SKIPPED: usize = 4096;

/// `with_min_len` for a phase of `len` items: no split below `threshold` (one piece), else
/// pieces of at least `piece`. The pieces are collected in order, so the result is the same.
fn min_len(len: usize, threshold: usize, piece: usize) -> usize {
    if len < threshold { len.max(1) } else { piece }
}

/// The first round's choice of gaps ([`first_round`]), made before the stage.
pub(super) struct FirstRound(Gaps);

/// The first round's choice: the wide faces across `band` and the gaps chosen among them,
/// from the world as the front stage leaves it. The rounds read the mesh, the positions and
/// the plate, crust, age and ridge layers only, which nothing changes between the two
/// stages, so this is the choice [`new_crust`]'s first round makes (checked in debug
/// builds); it runs beside the front stage's collision ranges (see
/// [`super::boundary::subduct_and_collide`]).
///
/// # Errors
/// When the world lacks a layer.
pub(super) fn first_round(
    world: &World,
    plates: &[Plate],
    params: &Params,
    buf: &mut Buffers,
    band: &[Edge],
) -> Result<FirstRound, TectonicsError> {
    let mesh = world.mesh();
    let made = Made::default();
    // No vertex is new yet: `fresh` is empty (every slot reads "not made").
    let known = Known {
        plate: slice(world, &PLATE)?,
        crust: slice(world, &CRUST)?,
        age: slice(world, &AGE)?,
        ridge: slice(world, &RIDGE)?,
        fresh: &[],
        fresh_bits: &[],
        made: &made,
    };
    let search = Search {
        mesh,
        pos: world_ops::positions(world),
        known: &known,
        plates,
        params,
    };
    let wide = wide_gaps(&search, &band::sides(mesh, band));
    let marks = Marks {
        used: &mut buf.used,
        marked: &mut buf.marked,
    };
    Ok(FirstRound(gaps(&search, &wide, &[], marks)))
}

/// New oceanic crust where the plates moved apart: every triangle joining two plates whose
/// circumradius exceeds the mesh spacing gets a vertex at its centre (on the plate of the
/// nearest corner), age 0, ridge depth; up to [`ROUNDS`] rounds, so wide gaps fill in rows.
/// The rounds are one world edit, and each layer is written once for all of them (the
/// values given with the insertion, not replayed). `edges`,
/// the [`band::boundary_edges`] before, are the ones after. `first` is the first round's
/// choice when [`first_round`] made it already. Returns the vertices made.
///
/// # Errors
/// When the world lacks a layer or refuses the insertion.
pub(super) fn new_crust(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    buf: &mut Buffers,
    edges: &mut Vec<Edge>,
    first: Option<FirstRound>,
) -> Result<usize, TectonicsError> {
    let mut first = first.map(|f| f.0);
    let layer = |name: &str| TectonicsError::World(format!("no `{name}` layer"));
    // The layers as they are before the rounds, shared (not copied) and dropped in the last
    // round, before the insertion's journal reaches them (which then writes them in place,
    // not into copies); the new vertices' values are in `made` until the end.
    let mut before = Some(Before {
        plate: world.layer(&PLATE).ok_or_else(|| layer("plate"))?.clone(),
        crust: world.layer(&CRUST).ok_or_else(|| layer("crust"))?.clone(),
        age: world.layer(&AGE).ok_or_else(|| layer("crust_age"))?.clone(),
        ridge: world
            .layer(&RIDGE)
            .ok_or_else(|| layer("ridge_partner"))?
            .clone(),
    });
    let mut round = 0;
    let mut made = Made::default();
    let mut pending = Gaps::default();
    let mut recorded = 0;
    // The wide faces a round skipped that the insertion left as they were.
    let mut kept: Vec<Wide> = Vec::new();
    let Buffers {
        fresh,
        fresh_bits,
        used,
        marked,
    } = buf;
    let band = &edges[..];
    // The new vertices' data, given with the insertion: these layers take it instead of
    // replaying the journal (which would blend values only to be overwritten).
    let mut values = NewValues::new();
    let columns = (
        values.column(&PLATE),
        values.column(&CRUST),
        values.column(&AGE),
        values.column(&ELEVATION),
        values.column(&OROGENY),
        values.column(&RIDGE),
    );
    let rounds = world
        .insert_points_in_rounds_with_unreported(ROUNDS, &mut values, |mesh, pos, new, values| {
            // The previous round's vertices and what they hold.
            for (k, &v) in new.iter().enumerate() {
                if fresh.len() <= v.index() {
                    fresh.resize(v.index() + 1, NONE);
                }
                fresh[v.index()] = made.vertices.len() as u32;
                let (word, bit) = (v.index() / 64, v.index() % 64);
                if fresh_bits.len() <= word {
                    fresh_bits.resize(word + 1, 0);
                }
                fresh_bits[word] |= 1 << bit;
                made.vertices.push(v);
                made.owners.push(pending.owners[k]);
                made.ages.push(pending.ages[k]);
                made.ridges.push(pending.ridges[k]);
            }
            if !new.is_empty() {
                recorded += 1;
            }
            round += 1;
            let Some(b) = &before else {
                return Vec::new();
            };
            let known = Known {
                plate: b.plate.as_slice(),
                crust: b.crust.as_slice(),
                age: b.age.as_slice(),
                ridge: b.ridge.as_slice(),
                fresh,
                fresh_bits,
                made: &made,
            };
            let marks = Marks { used, marked };
            let search = Search {
                mesh,
                pos,
                known: &known,
                plates,
                params,
            };
            // The first round: the faces across the band (chosen before the stage when
            // `first` holds it); then those around the last round's vertices.
            match first.take().filter(|_| new.is_empty()) {
                Some(chosen) => {
                    #[cfg(debug_assertions)]
                    {
                        let fresh = wide_gaps(&search, &band::sides(mesh, band));
                        let again = gaps(&search, &fresh, &kept, marks);
                        debug_assert!(again == chosen, "the first round chosen before");
                    }
                    pending = chosen;
                }
                None => {
                    let fresh = if new.is_empty() {
                        wide_gaps(&search, &band::sides(mesh, band))
                    } else {
                        next_wide(&search, new, &pending.skipped, &mut kept)
                    };
                    #[cfg(debug_assertions)]
                    check_focus(&search, new, &fresh, &kept, &pending);
                    pending = gaps(&search, &fresh, &kept, marks);
                }
            }
            give(values, columns, &pending);
            if pending.points.is_empty() || round == ROUNDS {
                // The last round: the insertion's journal then reaches layers no longer
                // shared, and writes them in place.
                before = None;
            }
            std::mem::take(&mut pending.points)
        })
        .map_err(|e| TectonicsError::World(format!("insert: {e}")))?;
    // The last round's vertices, when the rounds ran out before an empty one.
    if let Some(last) = rounds.last().filter(|_| rounds.len() > recorded) {
        for (k, &v) in last.iter().enumerate() {
            made.vertices.push(v);
            made.owners.push(pending.owners[k]);
            made.ages.push(pending.ages[k]);
            made.ridges.push(pending.ridges[k]);
        }
    }
    for v in &made.vertices {
        if let Some(f) = fresh.get_mut(v.index()) {
            *f = NONE;
        }
        if let Some(w) = fresh_bits.get_mut(v.index() / 64) {
            *w = 0;
        }
    }
    // Every edge the insertion made or flipped ends at a new vertex: the band's new edges
    // are in their rings (each crossing edge once per new end; `update` deduplicates).
    let (mesh, plate) = (world.mesh(), slice(world, &PLATE)?);
    let touched: Vec<Edge> = made
        .vertices
        .par_iter()
        .with_min_len(256)
        .flat_map_iter(|&v| {
            let p = plate[v.index()];
            mesh.outgoing(v)
                .filter(move |&e| plate[mesh.dest(e).index()] != p)
        })
        .collect();
    band::update(mesh, plate, edges, touched);
    Ok(made.vertices.len())
}

/// The columns of the new vertices' layers: plate, crust, age, elevation, orogeny, ridge.
type Columns = (
    ColumnId<u32>,
    ColumnId<u8>,
    ColumnId<f32>,
    ColumnId<f32>,
    ColumnId<u8>,
    ColumnId<u32>,
);

/// The data of a round's new vertices, in its points' order: new ocean floor at ridge depth.
fn give(values: &mut NewValues, (plate, crust, age, elevation, orogeny, ridge): Columns, g: &Gaps) {
    let n = g.points.len();
    values.values_mut(plate).extend_from_slice(&g.owners);
    values.values_mut(crust).extend((0..n).map(|_| OCEANIC));
    values.values_mut(age).extend_from_slice(&g.ages);
    values
        .values_mut(elevation)
        .extend((0..n).map(|_| RIDGE_DEPTH_M));
    values
        .values_mut(orogeny)
        .extend((0..n).map(|_| orogeny::NONE));
    values.values_mut(ridge).extend_from_slice(&g.ridges);
}

/// The layers as they were before the rounds (shared with the world's, not copied).
struct Before {
    plate: layers::Layer<u32, layers::VertexKind>,
    crust: layers::Layer<u8, layers::VertexKind>,
    age: layers::Layer<f32, layers::VertexKind>,
    ridge: layers::Layer<u32, layers::VertexKind>,
}

/// The vertices made so far this step and their plates and ages.
#[derive(Default)]
struct Made {
    vertices: Vec<Vertex>,
    owners: Vec<u32>,
    ages: Vec<f32>,
    ridges: Vec<u32>,
}

/// What one round of [`gaps`] found.
#[derive(Default, PartialEq)]
struct Gaps {
    /// Where new crust goes (with the face it lies in), and the plate of each.
    points: Vec<(DVec3, Face)>,
    owners: Vec<u32>,
    /// The age of each (Myr): see [`super::ridge`].
    ages: Vec<f32>,
    /// The plate across the ridge that made each.
    ridges: Vec<u32>,
    /// Wide faces left for the next round (a neighbour was filled first), in face order.
    skipped: Vec<Wide>,
}

/// The marks of a round: the vertices near a point of this round, and which they are (so
/// that only they are cleared).
struct Marks<'a> {
    /// One bit per vertex slot (a small array: the greedy choice reads it for every corner).
    used: &'a mut Vec<u64>,
    marked: &'a mut Vec<u32>,
}

impl Marks<'_> {
    fn mark(&mut self, v: Vertex) {
        let (word, bit) = (v.index() / 64, 1u64 << (v.index() % 64));
        if self.used.len() <= word {
            self.used.resize(word + 1, 0);
        }
        if self.used[word] & bit == 0 {
            self.used[word] |= bit;
            self.marked.push(v.raw());
        }
    }

    fn is(&self, v: Vertex) -> bool {
        let (word, bit) = (v.index() / 64, 1u64 << (v.index() % 64));
        self.used.get(word).is_some_and(|w| w & bit != 0)
    }

    fn clear(&mut self) {
        for &v in self.marked.iter() {
            self.used[v as usize / 64] = 0;
        }
        self.marked.clear();
    }
}

/// The centres of the wide triangles among `faces` (the faces across the band, or around
/// what the last round changed: a face whose corners are all on one plate is no gap), at
/// most one per vertex's star per round (so two new points never crowd), and the plate each
/// joins.
fn gaps(search: &Search<'_>, fresh: &[Wide], kept: &[Wide], mut marks: Marks<'_>) -> Gaps {
    let mesh = search.mesh;
    let mut found = Gaps::default();
    let mut taken: Vec<[Vertex; 3]> = Vec::new();
    for w in merged(fresh, kept) {
        let (f, corners, point) = *w;
        if corners.iter().any(|&v| marks.is(v)) {
            found.skipped.push(*w);
            continue;
        }
        for v in corners {
            marks.mark(v);
        }
        // The three rings walked in step: their chains of dependent reads overlap (the
        // marks are a set, so the order they are made in does not matter).
        let mut rings = corners.map(|v| mesh.neighbors(v));
        loop {
            let mut more = false;
            for ring in &mut rings {
                if let Some(u) = ring.next() {
                    marks.mark(u);
                    more = true;
                }
            }
            if !more {
                break;
            }
        }
        found.points.push((point, f));
        taken.push(corners);
    }
    marks.clear();
    // Split only where a round fills thousands of gaps (see `PAR_FLOORS`).
    let floors: Vec<ridge::Floor> = found
        .points
        .par_iter()
        .zip(&taken)
        .with_min_len(min_len(taken.len(), PAR_FLOORS, 256))
        .map(|(&(point, _), &corners)| floor_at(search, corners, point))
        .collect();
    found.owners.extend(floors.iter().map(|f| f.plate));
    found.ages.extend(floors.iter().map(|f| f.age));
    found.ridges.extend(floors.iter().map(|f| f.ridge));
    found
}

/// The wide faces the next round looks at, after a round made `new`: those around the new
/// vertices (in face order, each once), and the wide faces the round skipped (`skipped`)
/// that are still there with the same corners (`kept`). Only these can be wide: an insertion
/// makes faces only around its new vertex, and an unchanged face is what it was (its
/// corners' plates and data do not change within the step). A skipped face whose id now
/// names other corners is tested again. The faces around each new vertex are read off one
/// walk and tested in the same pass, on all cores when the round is large.
fn next_wide(
    search: &Search<'_>,
    new: &[Vertex],
    skipped: &[Wide],
    kept: &mut Vec<Wide>,
) -> Vec<Wide> {
    let mesh = search.mesh;
    // Per skipped face: gone (`None`), or its corners now (the same: kept; others: tested
    // again).
    let now: Vec<Option<[Vertex; 3]>> = skipped
        .par_iter()
        .with_min_len(min_len(skipped.len(), PAR_SKIPPED, 1024))
        .map(|w| mesh.is_face_alive(w.0).then(|| mesh.face_vertices(w.0)))
        .collect();
    kept.clear();
    let mut again: Vec<Cornered> = Vec::new();
    for (&w, &corners) in skipped.iter().zip(&now) {
        match corners {
            Some(c) if c == w.1 => kept.push(w),
            Some(c) => again.push((w.0, c)),
            None => {}
        }
    }
    let mut wide: Vec<Wide> = Vec::new();
    wide.par_extend(
        new.par_iter()
            .with_min_len(min_len(new.len(), PAR_NEW_FACES, 64))
            .filter(|v| mesh.is_vertex_alive(**v))
            .flat_map_iter(|&v| faces_around(mesh, v).filter_map(|c| wide_at(search, c))),
    );
    wide.extend(again.iter().filter_map(|&c| wide_at(search, c)));
    // A face around two new vertices is found twice (the same entry both times). A round's
    // list is a few thousand entries at most: sorted on this thread.
    wide.sort_unstable_by_key(|w| w.0);
    wide.dedup_by_key(|w| w.0);
    // A face around a new vertex has it for a corner, so it is no kept one.
    debug_assert!(
        kept.iter()
            .all(|k| wide.binary_search_by_key(&k.0, |w| w.0).is_err())
    );
    wide
}

/// Debug builds: the wide faces [`next_wide`] leads [`gaps`] to are those of every face
/// around the new vertices and the corners of the skipped faces (the search it replaces).
#[cfg(debug_assertions)]
fn check_focus(search: &Search<'_>, new: &[Vertex], fresh: &[Wide], kept: &[Wide], last: &Gaps) {
    if new.is_empty() {
        return;
    }
    let mesh = search.mesh;
    let mut all: Vec<Face> = new
        .iter()
        .copied()
        .chain(last.skipped.iter().flat_map(|w| w.1))
        .filter(|v| mesh.is_vertex_alive(*v))
        .flat_map(|v| mesh.vertex_faces(v))
        .collect();
    all.sort_unstable();
    all.dedup();
    let full = wide_gaps(search, &all);
    let ours: Vec<Wide> = merged(fresh, kept).copied().collect();
    debug_assert!(
        full == ours,
        "the focused gap search finds what a full one does"
    );
}
