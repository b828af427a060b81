//! Where plates meet: subduction and collision, decided before the plates move (new crust in
//! the gaps they leave is [`super::new_crust`]).
//!
//! Before a motion step, each vertex near a boundary asks where it will be: turned by its own
//! plate and seen from the plate across the boundary (turned back by that plate's rotation),
//! is that point in the other plate's territory now, within half a cell of the other plate's
//! nearest vertex ([`OVERLAP_CELLS`])? If so, the two crusts will overlap there. Oceanic crust under continental crust, or the
//! faster plate's of two oceans, is consumed: those vertices are removed, so the overriding plate
//! moves into the room they leave and the boundary stays clean. Continent against continent
//! is a collision: continental crust does not sink, it shortens and thickens. The faster
//! plate's crust that would overlap the other continent is taken up into the other plate's
//! margin (its vertices merge into the crust they run into, whose collision range rises
//! around the contact by the volume taken up: [`super::accretion`] keeps the budget), so
//! the other plate's margin stays where it is and the faster plate loses exactly the
//! convergence, in km, as at a subduction front. A small continent is not shortened but
//! sutures: when the faster plate's continental crust connected to the contact
//! is under [`super::SUTURE_MAX_KM2`] (straits under [`super::SUTURE_STRAIT_KM`] bridged),
//! that whole terrane is re-plated onto the other plate and moves with it
//! ([`super::suture`]); once a pair has shortened a large continent, it never sutures (the
//! remnant of a shortened continent does not re-plate). The test is exact geometry in km: no
//! edge counts.
//!
//! Why not re-plate the colliding crust where it stands (the suture of earlier versions): a
//! re-plated vertex became the other plate's new margin, half a cell or more nearer than the
//! contact, and the next row was caught there in turn, so the boundary moved into the faster
//! plate at 1.0–2.1 times the convergence depending on the cell size (a 1D model of the rule,
//! docs/benchmark-notes.md): plates differed by 5–17% between 100k and 1M vertices. Merged
//! crust leaves the other plate's vertices, which never move in its frame, as the margin.

mod cells;
mod front;
mod shore;

use super::accretion::{CRUST_KM, FREEBOARD};
use super::band;
use super::distance::{Source, Sweep};
use super::suture;
use super::{
    CONTINENTAL, CRUST, ELEVATION, OCEANIC, OROGENY, PLATE, Params, Plate, TectonicsError, orogeny,
    set, slice, world_ops,
};
use cells::flat_cell;
use quadedge::{Edge, Vertex};
use rayon::prelude::*;
use shore::{neighbour_bits, shore};
use std::collections::BTreeMap;
use world::World;

/// Collision range: half-width (km) of the margin the shortened crust thickens (Tibet's
/// plateau and the Himalaya together are about 1,000–1,500 km wide).
const COLLISION_RADIUS_KM: f64 = 700.0;
/// Highest a collision raises crust (m): thickening beyond it widens the range instead of
/// raising it (the plateau's crust flows and spreads; Tibet's mean stands at about 5 km).
/// The volume above it stays in the budget ([`super::Budget`]).
pub const RANGE_MAX_M: f32 = 6000.0;

/// A vertex's crust overlaps the other plate's when it lands nearer to the other plate's
/// vertex than to any vertex of its own plate, and either within this many mesh spacings of
/// it or beyond the other plate's front row. A vertex stands for a cell of crust about a
/// spacing wide, so the front row is consumed once its cells overlap the other plate's by
/// half, and the two rows end about a spacing apart, the boundary half a cell from each,
/// whatever the cell size. Consuming
/// every vertex whose landing point was merely nearer to the other plate's vertex than to its
/// own plate's left the rows `s` to `s + spacing` apart (`s` the step's closing), and along
/// oblique and sliding boundaries ate the ragged rows' teeth, at a rate that grew with the
/// cell: small plates came out 5–25% smaller at 20k and 100k than at 1M vertices.
const OVERLAP_CELLS: f64 = 0.5;

/// Candidates per task of the overlap test (each task's walks start from the previous
/// answer).
const WALK_CHUNK: usize = 256;

/// What the front stage did.
pub(super) struct Fronts {
    pub subducted: usize,
    /// Continental vertices taken up by collisions.
    pub shortened: usize,
    /// Their area (km²): its volume thickens the other margin.
    pub shortened_km2: f64,
    /// Vertices of small terranes re-plated onto the plate they collided with.
    pub sutured: usize,
}

/// Which plate of each pair of oceanic plates (lower id first) dives under the other.
pub(super) type Polarity = BTreeMap<(u32, u32), u32>;

/// The key of a pair of plates in a [`Polarity`].
fn pair(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// One vertex that will overlap another plate after the coming motion.
#[derive(Clone, Copy)]
struct Overlap {
    vertex: Vertex,
    other: u32,
    other_continental: bool,
    /// The other plate's vertex nearest to where the vertex lands.
    landed: Vertex,
}

/// Decides and applies subduction and collision for the coming motion (see the module docs);
/// `edges` becomes the [`band::boundary_edges`] after it. `beside` runs on the world and
/// the band as the stage leaves them (short of the collision ranges' rises, which it must
/// not read), beside the ranges' sweep: the next stage's first reads. `moved` is the band of vertices the
/// motion handed back ([`World::turn_regions_in_steps_banded`]), emptied here so that it is
/// never read stale; when empty, the boundary edges come from a scan of every edge (and the
/// band's vertices from them).
///
/// # Errors
/// When the world lacks a layer or refuses the removal.
#[allow(clippy::too_many_arguments)]
pub(super) fn subduct_and_collide<R: Send>(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    sweep: &mut Sweep,
    polarity: &mut Polarity,
    (moved, edges): (&mut Vec<Vertex>, &mut Vec<Edge>),
    sutures: &mut suture::Sutures,
    beside: impl FnOnce(&World, &[Edge]) -> R + Send,
) -> Result<(Fronts, R), TectonicsError> {
    let (doomed, c, near) = {
        let plate = slice(world, &PLATE)?;
        let crust = slice(world, &CRUST)?;
        let mesh = world.mesh();
        // From the motion's band, the edges are found beside the first row's tests.
        let handed = !moved.is_empty();
        if !handed {
            *edges = band::boundary_edges(mesh, plate);
            *moved = band::ends(mesh, edges);
        }
        let ends: &[Vertex] = moved;
        let overlaps = front::find_overlaps(
            world,
            plates,
            params,
            (plate, crust),
            ((edges, handed), ends),
            polarity,
        );
        debug_assert!(*moved == band::ends(mesh, edges), "the band's vertices");
        moved.clear();
        decide_polarity(&overlaps, plate, crust, plates, polarity);
        let (doomed, contacts) = decide(&overlaps, plate, crust, polarity);
        // The consumed ocean's neighbours are marked beside the collisions.
        let (c, near) = rayon::join(
            || collided(world, plates, params, &contacts, (plate, crust), sutures),
            || neighbour_bits(mesh, &doomed),
        );
        (doomed, c, near)
    };
    // The small terranes change plate (disjoint from the removed vertices)...
    let sutured: Vec<Vertex> = c.sutured.iter().map(|&(v, _)| v).collect();
    if !sutured.is_empty() {
        set(world, &PLATE, &sutured, |k| c.sutured[k].1)?;
    }
    // ...and one removal takes the consumed ocean and the shortened continents (disjoint,
    // sorted).
    let mut gone = Vec::with_capacity(doomed.len() + c.taken.len());
    gone.extend_from_slice(&doomed);
    gone.extend_from_slice(&c.taken);
    gone.sort_unstable();
    // A removal makes edges only between vertices that were the removed ones' neighbours
    // (the new edges of each hole join its link, and a link only ever holds such vertices):
    // their rings after it hold every edge it made, so the world need not report them.
    let shore = shore(world.mesh(), near, &gone, &c.taken);
    debug_assert!(shore == band::shore(world.mesh(), &gone), "the shore");
    // The removal is one serial edit: the other core clears the last sweep meanwhile (the
    // ranges' sweep would begin with it).
    let (removed, ()) = rayon::join(
        || world_ops::remove_vertices_unreported(world, &gone),
        || sweep.forget(),
    );
    removed?;
    // The collision ranges' rises and the band after the edits (from what they touched),
    // then `beside`, read the mesh as the removal left it, each what the other does not
    // write: both at once.
    let (rises, next) = {
        let w: &World = world;
        let (mesh, plate) = (w.mesh(), slice(w, &PLATE)?);
        let (rises, next) = rayon::join(
            || range_rises(w, params, &c.ranges, sweep),
            || {
                // Only the edges that cross plates can join the band.
                let crosses =
                    |e: &Edge| plate[mesh.origin(*e).index()] != plate[mesh.dest(*e).index()];
                let touched = band::around(mesh, &shore).filter(crosses);
                band::update(
                    mesh,
                    plate,
                    edges,
                    touched.chain(band::around(mesh, &sutured)),
                );
                beside(w, edges)
            },
        );
        (rises?, next)
    };
    raise(world, &rises)?;
    let fronts = Fronts {
        subducted: doomed.len(),
        shortened: c.taken.len(),
        shortened_km2: c.taken_km2,
        sutured: sutured.len(),
    };
    Ok((fronts, next))
}

/// Continental contacts per (plate, plate across), in vertex order: the vertex and the other
/// plate's vertex it lands nearest to.
type Contacts = BTreeMap<(u32, u32), Vec<(Vertex, Vertex)>>;

/// Ocean against ocean: per pair of plates, the faster plate dives, decided when the two
/// first converge and kept, as a subduction zone keeps its polarity. Plates pulled by a
/// sinking slab are the fast ones (slab pull: on Earth the plates with long subduction zones
/// move fastest); speeds are drawn from the seed, so the choice is the same on every mesh.
/// Comparing the two plates' mean floor ages (denser, older floor dives) was not: the
/// initial ages and the floor consumed so far are sampled by the mesh, plates often have
/// nearly equal means, and seed 2026 chose differently at 20k and 100k for three pairs, each
/// sending a few percent of the sphere to the other plate within 60 Myr.
fn decide_polarity(
    overlaps: &[Overlap],
    plate: &[u32],
    crust: &[u8],
    plates: &[Plate],
    polarity: &mut Polarity,
) {
    for o in overlaps {
        if crust[o.vertex.index()] != OCEANIC || o.other_continental {
            continue;
        }
        let (a, b) = pair(plate[o.vertex.index()], o.other);
        polarity.entry((a, b)).or_insert(diver(plates, a, b));
    }
}

/// Of two oceanic plates `a < b` meeting for the first time, the one that dives (see
/// [`decide_polarity`]; ties: the lower id).
fn diver(plates: &[Plate], a: u32, b: u32) -> u32 {
    let speed = |p: u32| plates.get(p as usize).map_or(0.0, |p| p.omega);
    if speed(a) >= speed(b) { a } else { b }
}

/// Whether plate `a`'s ocean dives under plate `b`'s: as decided, or as
/// [`decide_polarity`] will decide it when the two have not met yet.
fn dives(polarity: &Polarity, plates: &[Plate], a: u32, b: u32) -> bool {
    let (lo, hi) = pair(a, b);
    polarity
        .get(&(lo, hi))
        .map_or_else(|| diver(plates, lo, hi) == a, |&d| d == a)
}

/// Which overlapping vertices are consumed (in increasing order) and which continental
/// contacts collide.
fn decide(
    overlaps: &[Overlap],
    plate: &[u32],
    crust: &[u8],
    polarity: &Polarity,
) -> (Vec<Vertex>, Contacts) {
    let dives = |a: u32, b: u32| polarity.get(&pair(a, b)) == Some(&a);
    let mut doomed = Vec::new();
    let mut contacts: Contacts = BTreeMap::new();
    for o in overlaps {
        let v = o.vertex.index();
        let a = plate[v];
        let mine_continental = crust[v] == CONTINENTAL;
        match (mine_continental, o.other_continental) {
            (false, true) => doomed.push(o.vertex),
            (false, false) if dives(a, o.other) => doomed.push(o.vertex),
            (true, true) => contacts
                .entry((a, o.other))
                .or_default()
                .push((o.vertex, o.landed)),
            _ => {}
        }
    }
    doomed.sort_unstable();
    (doomed, contacts)
}

/// The collision ranges rise around the contacts: the crust shortened towards each source
/// (a vertex of the other plate that took up the faster plate's crust, with that crust's
/// area in km²; a source no longer alive is skipped) thickens the continental crust within
/// [`COLLISION_RADIUS_KM`] of it, most near the contact (`(1 − (d/R)²)²`), and the surface
/// rises by [`FREEBOARD`] of the extra thickness: per source, the rises times the cells'
/// areas sum to its area × [`CRUST_KM`] × [`FREEBOARD`] (volume kept, Airy isostasy). Each
/// vertex's rise (m), written by [`raise`].
fn range_rises(
    world: &World,
    params: &Params,
    sources: &[(Vertex, f64)],
    sweep: &mut Sweep,
) -> Result<Vec<(usize, f32)>, TectonicsError> {
    if sources.is_empty() {
        return Ok(Vec::new());
    }
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let crust = slice(world, &CRUST)?;
    let live: Vec<Source> = sources
        .iter()
        .enumerate()
        .filter(|(_, (v, _))| mesh.is_vertex_alive(*v))
        .map(|(k, &(vertex, _))| Source {
            vertex,
            point: pos[vertex.index()],
            tag: k as u32,
        })
        .collect();
    // The rises are written by vertex: `reached` needs no sort.
    sweep.unordered().run(
        mesh,
        pos,
        params.radius_km,
        &live,
        COLLISION_RADIUS_KM,
        None,
    );
    // Only the continental vertices the sweep reached thicken: their weight and cell.
    let weighed: Vec<(usize, f64, f64)> = sweep
        .reached()
        .par_iter()
        .with_min_len(4096)
        .map(|&i| i as usize)
        .filter(|&i| crust[i] == CONTINENTAL)
        .map(|i| {
            let x = 1.0 - (f64::from(sweep.dist(i)) / COLLISION_RADIUS_KM).powi(2);
            (
                i,
                (x * x).max(0.0),
                flat_cell(mesh, pos, Vertex::new(i as u32)),
            )
        })
        .collect();
    let mut total = vec![0.0; sources.len()];
    for &(i, w, cell) in &weighed {
        total[sweep.tag(i) as usize] += w * cell;
    }
    // km² of crust × km of thickness × freeboard, spread over km² of cells: km, to metres.
    let per_km2 = CRUST_KM * FREEBOARD * 1000.0;
    Ok(weighed
        .par_iter()
        .with_min_len(4096)
        .map(|&(i, w, _)| {
            let k = sweep.tag(i) as usize;
            let rise = sources[k].1 * per_km2 * w / total[k];
            (i, rise as f32)
        })
        .filter(|&(_, rise)| rise > 0.0)
        .collect())
}

/// Writes the collision ranges' rises ([`range_rises`]) and their orogeny.
fn raise(world: &mut World, rises: &[(usize, f32)]) -> Result<(), TectonicsError> {
    if rises.is_empty() {
        return Ok(());
    }
    // Only the entries that change are written, in place (a guard would copy each layer
    // for its rollback).
    let risen: Vec<Vertex> = rises.iter().map(|&(i, _)| Vertex::new(i as u32)).collect();
    let h = slice(world, &ELEVATION)?;
    // Up to [`RANGE_MAX_M`] (crust already above it stays where it is).
    let raised: Vec<f32> = rises
        .iter()
        .map(|&(i, rise)| (h[i] + rise).min(h[i].max(RANGE_MAX_M)))
        .collect();
    set(world, &ELEVATION, &risen, |k| raised[k])?;
    set(world, &OROGENY, &risen, |_| orogeny::HIMALAYAN)?;
    Ok(())
}

/// Per pair of plates in continental contact, the faster plate's continental crust that the
/// coming motion would push into the slower one (each vertex once, the first contact that
/// names it): a small terrane sutures whole onto the slower plate ([`suture::terranes`]),
/// a large continent's front is taken up by the slower plate's margin (crustal shortening,
/// as India's crust into Asia), and the pair is then kept shortening
/// ([`suture::Collisions`]). Also the collision ranges' sources: the slower plate's
/// vertices the shortened crust runs into, each once, with the area (km²) it takes up.
fn collided(
    world: &World,
    plates: &[Plate],
    params: &Params,
    contacts: &Contacts,
    layers: (&[u32], &[u8]),
    sutures: &mut suture::Sutures,
) -> Collided {
    let (plate, crust) = layers;
    let (mesh, pos) = (world.mesh(), world_ops::positions(world));
    // Only the faster plate's crust is taken up or sutured.
    let faster = |a: u32, b: u32| suture::faster(plates, a, b);
    let active: Vec<_> = contacts
        .iter()
        .filter(|&(&(a, b), _)| faster(a, b))
        .map(|(&ab, touch)| (ab, touch))
        .collect();
    // Pairs already shortening do not suture: only the others' contacts are weighed.
    let seeds: Vec<Vertex> = active
        .iter()
        .filter(|(ab, _)| !sutures.collisions.contains(ab))
        .flat_map(|(_, touch)| touch.iter().map(|&(v, _)| v))
        .collect();
    let terranes = suture::terranes(world, plate, crust, &seeds, params.spacing_km, sutures);
    let mut c = Collided::default();
    let mut done = std::collections::BTreeSet::new();
    let mut joined = std::collections::BTreeSet::new();
    let mut sources = BTreeMap::new();
    let mut k = 0;
    let mut shortening = Vec::new();
    // The vertex each taken vertex runs into, in the order taken.
    let mut towards = Vec::new();
    for ((a, b), touch) in active {
        let weighed = !sutures.collisions.contains(&(a, b));
        for &(v, w) in touch {
            let terrane = if weighed {
                k += 1;
                terranes.of(k - 1)
            } else {
                None
            };
            if plate[v.index()] != a || done.contains(&v) {
                continue;
            }
            // A small terrane joins the other plate whole (the first pair that names it);
            // a large one is shortened.
            match terrane {
                Some((t, vertices)) => {
                    if joined.insert(t) {
                        done.extend(vertices.iter().copied());
                        c.sutured.extend(vertices.iter().map(|&u| (u, b)));
                    }
                }
                None => {
                    if weighed {
                        shortening.push((a, b));
                    }
                    done.insert(v);
                    c.taken.push(v);
                    towards.push(w);
                }
            }
        }
    }
    // Their areas thicken the margins they run into, around `w`: the cells on all cores,
    // summed in the order above.
    let cells: Vec<f64> = c
        .taken
        .par_iter()
        .with_min_len(256)
        .map(|&v| flat_cell(mesh, pos, v))
        .collect();
    for (&w, &cell) in towards.iter().zip(&cells) {
        *sources.entry(w).or_insert(0.0) += cell;
        c.taken_km2 += cell;
    }
    sutures.collisions.extend(shortening);
    c.taken.sort_unstable();
    c.sutured.sort_unstable();
    c.ranges = sources.into_iter().collect();
    c
}

/// What the collisions do (see [`collided`]).
#[derive(Default)]
struct Collided {
    /// Continental vertices shortened into the other plate's margin, in increasing order.
    taken: Vec<Vertex>,
    /// Vertices of small terranes with the plate they suture onto, in vertex order.
    sutured: Vec<(Vertex, u32)>,
    /// Their area (km²).
    taken_km2: f64,
    /// The collision ranges' sources with the area (km²) of the crust taken up towards
    /// them.
    ranges: Vec<(Vertex, f64)>,
}
