//! Relief at the tectonic time scale: mountains raised by distance to converging fronts,
//! trenches in front of them, ocean floor that sinks as it ages, continents worn down.
//!
//! Each boundary edge whose plates close on each other is a front, with its closing speed
//! (km/Myr). The overriding side (continent over ocean, younger ocean over older) rises by a
//! rate that peaks [`ARC_DISTANCE_KM`] behind the front (a cordillera on a continent, an
//! island arc on an ocean) and scales with the speed; the diving side deepens into a trench
//! within [`TRENCH_WIDTH_KM`]. Oceanic crust relaxes towards the depth of its age
//! (`-2600 m - 350 m·√(age/Myr)`, half-space cooling), so age and depth form bands parallel
//! to the ridges; continents above [`PLATEAU_M`] erode exponentially. Every rate is per Myr
//! and every width in km.

use super::distance::{Source, Sweep};
use super::front_field::{Carried, Field, REFRESH_MYR};
use super::{
    AGE, CONTINENTAL, CRUST, ELEVATION, OROGENY, PLATE, POSITION, Params, Plate, TectonicsError,
    orogeny, slice, world_err, world_ops,
};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;
use world::World;

/// Depth of the ocean floor (m) for crust `age` Myr old.
pub fn ocean_depth(age: f32) -> f32 {
    (-2600.0 - 350.0 * age.max(0.0).sqrt()).max(-6500.0)
}

/// Distance behind a subduction front where the uplift peaks (km), and the profile's width.
pub const ARC_DISTANCE_KM: f64 = 250.0;
const ARC_WIDTH_KM: f64 = 220.0;
/// Farthest reach of a front's uplift (km).
const REACH_KM: f64 = 650.0;
/// Width of a trench in front of a subduction zone (km) and its depth below the age curve.
pub const TRENCH_WIDTH_KM: f64 = 180.0;
const TRENCH_M: f32 = 3500.0;
/// Uplift (m/Myr) behind a front closing at [`REF_SPEED`] km/Myr.
const UPLIFT_M_PER_MYR: f64 = 110.0;
const REF_SPEED: f64 = 50.0;
/// Continents erode towards this height (m) with time constant [`EROSION_MYR`].
pub const PLATEAU_M: f32 = 500.0;
const EROSION_MYR: f32 = 35.0;
/// Oceanic relief anomalies relax with this time constant (Myr).
const DAMPING_MYR: f32 = 15.0;
/// Earth-like bounds (m).
pub const LOWEST_M: f32 = -11_000.0;
/// See [`LOWEST_M`].
pub const HIGHEST_M: f32 = 9_000.0;

/// What the relief stage saw.
pub(super) struct Seen {
    pub converging: usize,
    pub separating: usize,
}

/// Front tags: the source's index into the speeds, and whether the vertex is on the diving
/// side (top bit).
const DIVING: u32 = 1 << 31;
/// The tag of a vertex no front reached.
const NO_FRONT: u32 = u32::MAX;

/// One relief step after the motion and the new crust (see the module docs), at `time_myr`
/// (the step's start); `edges` are the [`super::band::boundary_edges`]. The fronts are swept
/// into `field` every [`REFRESH_MYR`] and carried in between ([`super::front_field`]). The
/// three layers it rewrites are written in place (one copy each, the one the world keeps for
/// its rollback).
///
/// # Errors
/// When the world lacks a layer.
pub(super) fn step(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    scratch: (&mut Sweep, &mut Field),
    time_myr: f64,
    edges: &[Edge],
) -> Result<Seen, TectonicsError> {
    let (sweep, field) = scratch;
    let refresh = field.due(time_myr);

    let (speeds, seen) = {
        let layers = Layers::of(world)?;
        let (sources, fronts, seen) = fronts(world, &layers, plates, params, edges, refresh);
        if refresh {
            let mesh = world.mesh();
            let pos = world_ops::positions(world);
            let (r, plate) = (params.radius_km, Some(layers.plate));
            sweep
                .unordered()
                .run(mesh, pos, r, &sources, REACH_KM, plate);
            field.anchors.clear();
            field
                .anchors
                .extend(fronts.iter().map(|f| (f.point, f.over)));
        }
        (fronts.iter().map(|f| f.speed).collect::<Vec<f64>>(), seen)
    };
    let elapsed = field.begin(time_myr, refresh);
    // Where fronts turned to since their sweep, for the diving side.
    let anchors = if refresh {
        Vec::new()
    } else {
        field.anchors_now(plates, elapsed)
    };
    // How much closer any crust comes to a front in a Myr (km): twice the fastest plate.
    let fastest = plates.iter().fold(0.0, |a: f64, p| a.max(p.omega.abs()));
    let closing = 2.0 * fastest * params.radius_km;
    let fronts = Fronts {
        swept: refresh.then_some((&*sweep, &speeds[..])),
        anchors: &anchors,
        elapsed,
        closing,
    };
    let err = world_err("relief");
    let tx = world.transaction();
    let slots = {
        let mesh = tx.mesh().map_err(&err)?;
        let crust = tx.read(&CRUST).map_err(&err)?;
        let plate = tx.read(&PLATE).map_err(&err)?;
        let pos = tx.read(&POSITION).map_err(&err)?;
        let mut age = tx.write(&AGE).map_err(&err)?;
        let mut h = tx.write(&ELEVATION).map_err(&err)?;
        let mut kind = tx.write(&OROGENY).map_err(&err)?;
        // The first write of each layer copies it (the world keeps the values before for its
        // rollback): the three copies side by side, each on its own core.
        let (age, h, kind) = (&mut *age, &mut *h, &mut *kind);
        let (age, (h, kind)) = rayon::join(
            || age.as_mut_slice(),
            || rayon::join(|| h.as_mut_slice(), || kind.as_mut_slice()),
        );
        let out = (age, h, kind);
        let read = (crust.as_slice(), plate.as_slice(), pos.as_slice());
        relieve_all(&mesh, read, &fronts, field, out, params)
    };
    // The sweep's slots were cleared as they were read: nothing left for the next sweep
    // (the accretion's, often in this step) to reset.
    if refresh {
        sweep.cleared(slots);
    }
    tx.commit().map_err(err)?;
    Ok(seen)
}

/// Where the fronts are this step: as swept now (the sweep and the fronts' closing speeds,
/// km/Myr), or carried `elapsed` Myr from their sweep (their points now, km); `closing`
/// bounds how fast (km/Myr) crust comes closer to a front.
struct Fronts<'a> {
    swept: Option<(&'a Sweep, &'a [f64])>,
    anchors: &'a [DVec3],
    elapsed: f64,
    closing: f64,
}

/// The world's layers the relief step reads.
struct Layers<'a> {
    plate: &'a [u32],
    crust: &'a [u8],
    age: &'a [f32],
}

impl<'a> Layers<'a> {
    fn of(world: &'a World) -> Result<Self, TectonicsError> {
        Ok(Layers {
            plate: slice(world, &PLATE)?,
            crust: slice(world, &CRUST)?,
            age: slice(world, &AGE)?,
        })
    }
}

/// A converging front (a boundary edge): its midpoint (km), closing speed (km/Myr) and
/// overriding plate.
struct FrontEdge {
    point: DVec3,
    speed: f64,
    over: u32,
}

/// The converging boundary edges as distance sources (the overriding end's and the diving
/// end's, at the edge's midpoint, tagged with the front's index), the fronts, and the edges
/// counted (only counted without `sweep`: no list made). The edges are classified on all
/// cores, in edge order.
fn fronts(
    world: &World,
    layers: &Layers<'_>,
    plates: &[Plate],
    params: &Params,
    edges: &[Edge],
    sweep: bool,
) -> (Vec<Source>, Vec<FrontEdge>, Seen) {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let (plate, crust, age) = (layers.plate, layers.crust, layers.age);
    // Per boundary edge between known plates: the closing speed, and the overriding and
    // diving ends when it converges.
    let classify = |&e: &Edge| {
        let (a, b) = (mesh.origin(e), mesh.dest(e));
        let (pa, pb) = (plate[a.index()] as usize, plate[b.index()] as usize);
        if pa >= plates.len() || pb >= plates.len() {
            return None;
        }
        let (xa, xb) = (pos[a.index()], pos[b.index()]);
        let mid = (xa + xb).normalize() * params.radius_km;
        let dir = (xb - xa).try_normalize()?;
        let closing = -(plates[pb].velocity(mid) - plates[pa].velocity(mid)).dot(dir);
        let (ca, cb) = (
            crust[a.index()] == CONTINENTAL,
            crust[b.index()] == CONTINENTAL,
        );
        // Which end overrides: a continent over an ocean, else the younger crust.
        let a_over = match (ca, cb) {
            (true, false) => true,
            (false, true) => false,
            _ => age[a.index()] <= age[b.index()],
        };
        let (over, under) = if a_over { (a, b) } else { (b, a) };
        Some((closing, over, under, mid))
    };
    if !sweep {
        // Counted only: no list of the edges.
        let (separating, all) = edges
            .par_iter()
            .filter_map(classify)
            .map(|c| (usize::from(c.0 <= 0.0), 1))
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
        let seen = Seen {
            converging: all - separating,
            separating,
        };
        return (Vec::new(), Vec::new(), seen);
    }
    let classified: Vec<(f64, Vertex, Vertex, DVec3)> =
        edges.par_iter().filter_map(classify).collect();
    let mut seen = Seen {
        converging: 0,
        separating: 0,
    };
    let (mut sources, mut fronts) = (Vec::new(), Vec::new());
    for (closing, over, under, mid) in classified {
        if closing <= 0.0 {
            seen.separating += 1;
            continue;
        }
        seen.converging += 1;
        let i = fronts.len() as u32;
        fronts.push(FrontEdge {
            point: mid,
            speed: closing,
            over: plate[over.index()],
        });
        sources.push(Source {
            vertex: over,
            point: mid,
            tag: i,
        });
        sources.push(Source {
            vertex: under,
            point: mid,
            tag: i | DIVING,
        });
    }
    (sources, fronts, seen)
}

/// Every live vertex ages by a step and takes its relief step, on all cores, in its age,
/// elevation and orogeny (`out`): erosion or damping ([`erode`]), then the uplift or trench
/// of its front as swept this step (kept in the field) or as the field carries it. A sweep
/// read is cleared slot by slot below the count of slots it returns ([`Sweep::cleared`]).
fn relieve_all(
    mesh: &Mesh,
    read: (&[u8], &[u32], &[DVec3]),
    fronts: &Fronts<'_>,
    field: &mut Field,
    out: (&mut [f32], &mut [f32], &mut [u8]),
    params: &Params,
) -> usize {
    let ((crust, plate, pos), (age, h, kind)) = (read, out);
    let slots = h.len();
    let dt = params.time_step_myr as f32;
    let decay = ((-dt / EROSION_MYR).exp(), (-dt / DAMPING_MYR).exp());
    // The diving side beyond a trench, and farther than it comes before the next sweep,
    // takes nothing from its front: no arcsine there.
    let far_dive = fronts
        .swept
        .map(|(s, _)| s.beyond(TRENCH_WIDTH_KM + fronts.closing * REFRESH_MYR));
    let near = Near::new(params.radius_km);
    let (dist, held) = field.fit(h.len());
    h.par_iter_mut()
        .zip(age.par_iter_mut())
        .zip(kind.par_iter_mut())
        .zip(dist.par_iter_mut().zip(held.par_iter_mut()))
        .enumerate()
        .with_min_len(4096)
        .for_each(|(i, (((z, a), k), (fd, fh)))| {
            if !mesh.is_vertex_alive(Vertex::new(i as u32)) {
                if let Some((sweep, _)) = fronts.swept {
                    sweep.clear(i);
                }
                return;
            }
            *a += dt;
            let continental = crust[i] == CONTINENTAL;
            erode(z, *a, continental, decay);
            match (fronts.swept, &far_dive) {
                (Some((sweep, speeds)), Some(far)) => {
                    let tag = sweep.tag(i);
                    let diving = tag & DIVING != 0;
                    let (dist, kept) = if tag == NO_FRONT || (diving && (continental || far(i))) {
                        (f32::INFINITY, Carried::None)
                    } else {
                        let (front, dist) = (tag & !DIVING, sweep.dist(i));
                        let speed = speeds[front as usize];
                        let d = f64::from(dist);
                        if diving {
                            trench(z, *a, continental, d, speed);
                            let speed = speed as f32;
                            (dist, Carried::Diving { dist, speed, front })
                        } else {
                            let bump = bump(d);
                            raise(z, k, continental, rate(speed, bump) * dt);
                            // The rate the carried steps give: from the speed as kept.
                            (dist, Carried::Over(rate(f64::from(speed as f32), bump)))
                        }
                    };
                    (*fd, *fh) = Field::keep(dist, kept, plate[i], *a);
                    sweep.clear(i);
                }
                _ => match Field::carried(*fd, *fh, plate[i], *a, fronts.elapsed) {
                    Carried::None => {}
                    Carried::Over(rate) => raise(z, k, continental, rate * dt),
                    Carried::Diving { dist, speed, front } => {
                        // Near enough to have come within a trench's width since the sweep.
                        let d = f64::from(dist);
                        let near_now = d - fronts.closing * fronts.elapsed < TRENCH_WIDTH_KM;
                        if !continental
                            && near_now
                            && let Some(d) = (fronts.anchors.get(front as usize))
                                .and_then(|x| near.dist(pos[i], *x))
                        {
                            trench(z, *a, continental, d, f64::from(speed));
                        }
                    }
                },
            }
            *z = z.clamp(LOWEST_M, HIGHEST_M);
        });
    slots
}

/// The arc (km) between two points of a sphere, told only when under a trench's width:
/// the chord is compared first (a margin of 10⁻⁶ over every rounding), the arcsine taken
/// only for the few near enough.
struct Near {
    radius_km: f64,
    /// Chords above this are surely wider than a trench.
    cut: f64,
}

impl Near {
    fn new(radius_km: f64) -> Near {
        let arc = (TRENCH_WIDTH_KM * (1.0 + 1e-6) / radius_km).min(std::f64::consts::PI);
        let cut = 2.0 * radius_km * (0.5 * arc).sin();
        Near { radius_km, cut }
    }

    fn dist(&self, a: DVec3, b: DVec3) -> Option<f64> {
        let chord = a.distance(b);
        let r = self.radius_km;
        (chord <= self.cut).then(|| 2.0 * r * (0.5 * chord / r).clamp(0.0, 1.0).asin())
    }
}

/// Erosion (a continent above [`PLATEAU_M`], or below sea level towards its shelf) or
/// damping (ocean floor towards the depth of its age `a`), with the step's `decay` factors
/// (land, ocean).
fn erode(z: &mut f32, a: f32, continental: bool, decay: (f32, f32)) {
    let (decay_land, decay_ocean) = decay;
    if continental {
        if *z > PLATEAU_M {
            *z = PLATEAU_M + (*z - PLATEAU_M) * decay_land;
        } else if *z < -200.0 {
            *z = -200.0 + (*z + 200.0) * decay_ocean;
        }
    } else {
        let base = ocean_depth(a);
        *z = base + (*z - base) * decay_ocean;
    }
}

/// The trench of a diving vertex `d` km from its front closing at `speed` km/Myr (ocean
/// floor only, within [`TRENCH_WIDTH_KM`]).
fn trench(z: &mut f32, a: f32, continental: bool, d: f64, speed: f64) {
    if !continental && d < TRENCH_WIDTH_KM {
        let s = (speed / REF_SPEED).min(2.0);
        let x = (1.0 - d / TRENCH_WIDTH_KM) as f32;
        let trench = ocean_depth(a) - TRENCH_M * (s.min(1.0) as f32) * x * x;
        *z = z.min(trench);
    }
}

/// The uplift profile at `d` km behind a front (1 at [`ARC_DISTANCE_KM`]).
fn bump(d: f64) -> f64 {
    (-((d - ARC_DISTANCE_KM) / ARC_WIDTH_KM).powi(2)).exp()
}

/// The uplift rate (m/Myr) behind a front closing at `speed` km/Myr, where the profile is
/// `bump`.
fn rate(speed: f64, bump: f64) -> f32 {
    let s = (speed / REF_SPEED).min(2.0);
    (UPLIFT_M_PER_MYR * s * bump) as f32
}

/// A step's uplift `up` (m): an arc or a cordillera where it counts.
fn raise(z: &mut f32, k: &mut u8, continental: bool, up: f32) {
    if up > 1.0 {
        *z += up;
        *k = if continental {
            orogeny::ANDEAN
        } else {
            orogeny::ARC
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tectonics::{Tectonics, band};

    /// The chord test before the arcsine changes nothing: a trench's width is told as the
    /// arcsine alone tells it, at and around the width (points a few ulps apart).
    #[test]
    fn the_chord_tells_a_trench_width_as_the_arcsine_does() {
        let r = 6371.0;
        let near = Near::new(r);
        let arc = |a: DVec3, b: DVec3| {
            let chord = a.distance(b);
            2.0 * r * (0.5 * chord / r).clamp(0.0, 1.0).asin()
        };
        let a = DVec3::new(0.3, -0.5, 0.8).normalize() * r;
        let axis = a.normalize().any_orthonormal_vector();
        let (mut inside, mut outside) = (0, 0);
        for k in -2000..2000 {
            let km = TRENCH_WIDTH_KM * (1.0 + f64::from(k) * 1e-9) + f64::from(k % 7) * 1e-3;
            let b = glam::DQuat::from_axis_angle(axis, km / r) * a;
            let d = arc(a, b);
            match near.dist(a, b) {
                Some(x) => {
                    assert_eq!(x.to_bits(), d.to_bits());
                    inside += usize::from(d < TRENCH_WIDTH_KM);
                }
                None => {
                    assert!(d >= TRENCH_WIDTH_KM, "{d} km refused");
                    outside += 1;
                }
            }
        }
        assert!(
            inside > 100 && outside > 100,
            "{inside} inside, {outside} outside"
        );
    }

    /// Between sweeps the fronts are only counted: the counts of the listed fronts, and the
    /// sources are the converging edges' two ends.
    #[test]
    fn counted_fronts_are_the_listed_ones() {
        let params = Params::earth(6000, 3);
        let mut world = world_ops::fibonacci_world(6000, params.radius_km, 0.3, 3).unwrap();
        let mut t = Tectonics::new(&mut world, params).unwrap();
        for _ in 0..5 {
            t.step(&mut world).unwrap();
        }
        let layers = Layers::of(&world).unwrap();
        let edges = band::boundary_edges(world.mesh(), layers.plate);
        let (params, plates) = (&t.params, &t.plates);
        let (s, f, listed) = fronts(&world, &layers, plates, params, &edges, true);
        let (none, no_fronts, counted) = fronts(&world, &layers, plates, params, &edges, false);
        assert_eq!(
            (counted.converging, counted.separating),
            (listed.converging, listed.separating)
        );
        assert!(listed.converging > 20 && listed.separating > 20);
        assert_eq!(
            (s.len(), f.len()),
            (2 * listed.converging, listed.converging)
        );
        assert!(none.is_empty() && no_fronts.is_empty());
    }
}
