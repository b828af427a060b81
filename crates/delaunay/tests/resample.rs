//! Resampling a world onto another mesh through `delaunay::resample` stencils: onto its own
//! mesh every layer comes back bit for bit; onto a fresh sphere a linear field is reproduced
//! within the interpolation error and discrete layers take a corner's value; hostile input is
//! refused with a typed error.

use delaunay::resample::{Barycentric, StencilKinds, Stencils, stencils};
use delaunay::{DelaunayError, Plane, Sphere};
use glam::DVec3;
use layers::resample::ResamplePlan;
use layers::{DirectedEdgeKind, EdgeKind, FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex};
use sphere::Perturbation;
use testkit::planar_grid;
use world::World;

const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
const AREA: LayerInfo<f64, FaceKind> = LayerInfo::new("area");
const LENGTH: LayerInfo<f32, EdgeKind> = LayerInfo::new("length").initial(-1.0);
const FLOW: LayerInfo<i32, DirectedEdgeKind> = LayerInfo::new("flow");

fn linear(p: DVec3) -> f64 {
    0.5 + p.x - 2.0 * p.y + 0.75 * p.z
}

/// A world on a jittered Fibonacci sphere with layers of every policy family.
fn planet(n: usize, seed: u64) -> (World, Vec<DVec3>) {
    let (mesh, pos) =
        sphere::perturbed_fibonacci_sphere(n, 1.0, Perturbation::Tangent(0.3), seed).unwrap();
    let mut w = World::new(mesh.clone(), seed);
    w.update_layer(&POSITION, |l| l.as_mut_slice().copy_from_slice(&pos))
        .unwrap();
    {
        let mut h = w.lock_layer(&HEIGHT).unwrap();
        for v in mesh.vertices() {
            h[v] = linear(pos[v.index()]) as f32;
        }
        h.commit().unwrap();
    }
    {
        let mut p = w.lock_layer(&PLATE).unwrap();
        for v in mesh.vertices() {
            p[v] = (pos[v.index()].x > 0.1) as u32 + 2 * (pos[v.index()].z > -0.3) as u32;
        }
        p.commit().unwrap();
    }
    {
        let mut a = w.lock_layer(&AREA).unwrap();
        for f in mesh.faces() {
            let [x, y, z] = mesh.face_vertices(f).map(|v| pos[v.index()]);
            a[f] = (y - x).cross(z - x).length() + f.index() as f64;
        }
        a.commit().unwrap();
    }
    {
        let mut l = w.lock_layer(&LENGTH).unwrap();
        for e in mesh.undirected_edges() {
            l[e] = e.index() as f32;
        }
        l.commit().unwrap();
    }
    {
        let mut fl = w.lock_layer(&FLOW).unwrap();
        for e in mesh.directed_edges() {
            fl[e] = e.raw() as i32 * if e.is_even() { 1 } else { -1 };
        }
        fl.commit().unwrap();
    }
    (w, pos)
}

fn plan(s: &Stencils) -> ResamplePlan<'_> {
    ResamplePlan {
        vertex_corners: &s.corners,
        vertex_weights: &s.weights,
        faces: &s.faces,
        edges: &s.edges,
    }
}

#[test]
fn onto_its_own_mesh_every_layer_comes_back_bit_for_bit() {
    let (w, pos) = planet(3000, 5);
    let mesh = w.mesh().clone();
    let s = stencils(&Sphere, &mesh, &pos, &mesh, &pos, StencilKinds::ALL).unwrap();
    // Every vertex found as itself, every face and edge as itself.
    for v in mesh.vertices() {
        assert_eq!(s.corners[v.index()], [v; 3]);
    }
    for f in mesh.faces() {
        assert_eq!(s.faces[f.index()], f);
    }
    for e in mesh.directed_edges() {
        assert_eq!(s.edges[e.index()], e);
    }
    let back = w.resampled(mesh.clone(), &plan(&s)).unwrap();
    assert_eq!(
        back.layer_names().collect::<Vec<_>>(),
        w.layer_names().collect::<Vec<_>>()
    );
    assert!(
        back.layer(&POSITION)
            .unwrap()
            .bits_eq(w.layer(&POSITION).unwrap())
    );
    assert!(
        back.layer(&HEIGHT)
            .unwrap()
            .bits_eq(w.layer(&HEIGHT).unwrap())
    );
    assert_eq!(back.layer(&PLATE), w.layer(&PLATE));
    assert!(back.layer(&AREA).unwrap().bits_eq(w.layer(&AREA).unwrap()));
    assert!(
        back.layer(&LENGTH)
            .unwrap()
            .bits_eq(w.layer(&LENGTH).unwrap())
    );
    assert_eq!(back.layer(&FLOW), w.layer(&FLOW));
    assert_eq!(back.random(), w.random());
}

#[test]
fn onto_a_fresh_sphere_a_linear_field_is_reproduced() {
    let (w, pos) = planet(20_000, 5);
    let (new_mesh, new_pos) =
        sphere::perturbed_fibonacci_sphere(15_000, 1.0, Perturbation::Tangent(0.3), 9).unwrap();
    let s = stencils(
        &Sphere,
        w.mesh(),
        &pos,
        &new_mesh,
        &new_pos,
        StencilKinds::ALL,
    )
    .unwrap();
    let out = w.resampled(new_mesh.clone(), &plan(&s)).unwrap();
    assert_eq!(out.mesh(), &new_mesh);
    let h = out.layer(&HEIGHT).unwrap();
    let plate = out.layer(&PLATE).unwrap();
    let old_plate = w.layer(&PLATE).unwrap();
    let moved = out.layer(&POSITION).unwrap();
    // The weights interpolate at the point's projection onto the old face's plane, which lies
    // below the sphere by at most 1 − cos R ≈ R²/2 for a face of circumradius R (under 1.5
    // mean spacings, √(4π/n) ≈ 0.025, on this jittered lattice); the field's gradient is 2.36.
    let mut worst = 0.0f64;
    for v in new_mesh.vertices() {
        let p = new_pos[v.index()];
        worst = worst.max((h[v] as f64 - linear(p)).abs());
        // The heaviest corner's plate.
        let c = s.corners[v.index()];
        let wts = s.weights[v.index()];
        let heaviest = (0..3)
            .max_by(|&a, &b| wts[a].total_cmp(&wts[b]).then(b.cmp(&a)))
            .unwrap();
        assert_eq!(plate[v], old_plate[c[heaviest]]);
        // Slerped positions land near the new point (same face, on the sphere).
        assert!((moved[v].length() - 1.0).abs() < 1e-9);
        assert!(moved[v].distance(p) < 1e-3, "{v:?}");
    }
    let r = 1.5 * (4.0 * std::f64::consts::PI / 20_000.0f64).sqrt();
    assert!(worst < 2.36 * r * r / 2.0, "worst {worst}");
    // Face and edge layers copy their source's values.
    let area = out.layer(&AREA).unwrap();
    let old_area = w.layer(&AREA).unwrap();
    for f in new_mesh.faces() {
        assert_eq!(area[f], old_area[s.faces[f.index()]]);
    }
    let flow = out.layer(&FLOW).unwrap();
    let old_flow = w.layer(&FLOW).unwrap();
    for e in new_mesh.directed_edges() {
        let src = s.edges[e.index()];
        assert_eq!(flow[e], old_flow[src]);
        // Directed like the new edge.
        let d_new = new_pos[new_mesh.dest(e).index()] - new_pos[new_mesh.origin(e).index()];
        let d_old = pos[w.mesh().dest(src).index()] - pos[w.mesh().origin(src).index()];
        assert!(d_new.dot(d_old) >= 0.0);
    }
    // The face a centroid was found in contains it.
    for f in new_mesh.faces().step_by(97) {
        let [a, b, c] = new_mesh.face_vertices(f).map(|v| new_pos[v.index()]);
        let m = a + b + c;
        let [x, y, z] = w
            .mesh()
            .face_vertices(s.faces[f.index()])
            .map(|v| pos[v.index()]);
        assert!(x.cross(y).dot(m) >= 0.0 && y.cross(z).dot(m) >= 0.0 && z.cross(x).dot(m) >= 0.0);
    }
}

#[test]
fn vertex_only_stencils_leave_faces_and_edges_empty() {
    let (old, old_pos) = sphere::fibonacci_sphere(500, 1.0, 0.0, 0).unwrap();
    let (new, new_pos) = sphere::fibonacci_sphere(300, 2.0, 0.0, 0).unwrap();
    let s = stencils(
        &Sphere,
        &old,
        &old_pos,
        &new,
        &new_pos,
        StencilKinds::default(),
    )
    .unwrap();
    assert_eq!(s.corners.len(), 300);
    assert!(s.faces.is_empty() && s.edges.is_empty());
    // Weights sum to 1 and are non-negative (points on a sphere of another radius too).
    for w in &s.weights {
        assert!(w.iter().all(|x| *x >= 0.0));
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
    // A world with a face layer refuses a plan without face sources.
    let mut world = World::new(old.clone(), 1);
    world.lock_layer(&AREA).unwrap().commit().unwrap();
    let before = world.clone();
    let err = world.resampled(new.clone(), &plan(&s)).unwrap_err();
    assert!(
        matches!(err, world::resample::ResampleError::SlotCount { .. }),
        "{err}"
    );
    assert_eq!(world, before);
}

#[test]
fn barycentric_weights_reproduce_linear_fields_on_both_surfaces() {
    let (a, b, c) = (
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(4.0, 0.0, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
    );
    let p = DVec3::new(1.0, 0.5, 0.0);
    let w = Plane.weights(a, b, c, p);
    assert_eq!(w, [0.5, 0.25, 0.25]);
    assert_eq!(Plane.weights(a, b, c, b), [0.0, 1.0, 0.0]);
    let (x, y, z) = (DVec3::X, DVec3::Y, DVec3::Z);
    let w = Sphere.weights(x, y, z, DVec3::ONE);
    assert!(w.iter().all(|v| (v - 1.0 / 3.0).abs() < 1e-15));
    assert_eq!(Sphere.weights(x, y, z, z * 3.0), [0.0, 0.0, 1.0]);
    // Degenerate triangles give the first corner everything, never NaN.
    assert_eq!(Plane.weights(a, a, a, p), [1.0, 0.0, 0.0]);
}

#[test]
fn hostile_input_is_refused_with_a_typed_error() {
    let (old, old_pos) = sphere::fibonacci_sphere(200, 1.0, 0.0, 0).unwrap();
    let (new, mut new_pos) = sphere::fibonacci_sphere(100, 1.0, 0.0, 0).unwrap();
    let k = StencilKinds::ALL;
    assert!(matches!(
        stencils(&Sphere, &old, &old_pos[..10], &new, &new_pos, k),
        Err(DelaunayError::PositionsTooShort { .. })
    ));
    assert!(matches!(
        stencils(&Sphere, &old, &old_pos, &new, &new_pos[..99], k),
        Err(DelaunayError::PositionsTooShort { .. })
    ));
    new_pos[7] = DVec3::NAN;
    assert_eq!(
        stencils(&Sphere, &old, &old_pos, &new, &new_pos, k),
        Err(DelaunayError::NonFinite(Some(Vertex::new(7))))
    );
    new_pos[7] = DVec3::X;
    let mut bad_old = old_pos.clone();
    bad_old[3] = DVec3::INFINITY;
    assert!(matches!(
        stencils(&Sphere, &old, &bad_old, &new, &new_pos, k),
        Err(DelaunayError::NonFinite(_))
    ));
    let empty = Mesh::new();
    assert!(matches!(
        stencils(&Sphere, &empty, &[], &new, &new_pos, k),
        Err(DelaunayError::TooFewVertices(0))
    ));
}

#[test]
fn in_the_plane_linear_fields_are_exact_and_outside_points_take_the_border() {
    let (old, old_pos) = planar_grid(6, (0.0, 0.0), 1.0);
    // Inside the old square, off its lattice, and a few points beyond its right and top sides.
    let (new, new_pos) = planar_grid(7, (0.3, 0.2), 0.9);
    let s = stencils(&Plane, &old, &old_pos, &new, &new_pos, StencilKinds::ALL).unwrap();
    let f = |p: DVec3| 2.0 * p.x - 3.0 * p.y + 1.0;
    for v in new.vertices() {
        let p = new_pos[v.index()];
        let w = s.weights[v.index()];
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let blended: f64 = (0..3)
            .map(|k| f64::from(w[k]) * f(old_pos[s.corners[v.index()][k].index()]))
            .sum();
        // Inside: the plane's barycentric weights reproduce a linear field (to f32 weights).
        // Outside: the value at the nearest point of the border.
        let q = DVec3::new(p.x.clamp(0.0, 5.0), p.y.clamp(0.0, 5.0), 0.0);
        assert!(
            (blended - f(q)).abs() < 1e-4,
            "{v:?} at {p}: {blended} vs {}",
            f(q)
        );
    }
    // Every new face and edge has a live source.
    assert!(new.faces().all(|g| old.is_face_alive(s.faces[g.index()])));
    assert!(
        new.directed_edges()
            .all(|e| old.is_edge_alive(s.edges[e.index()]))
    );
}

#[test]
fn stencils_are_the_same_for_any_thread_count() {
    // Several chunks of vertices, faces and edges.
    let (old, old_pos) =
        sphere::perturbed_fibonacci_sphere(30_000, 1.0, Perturbation::Tangent(0.3), 1).unwrap();
    let (new, new_pos) =
        sphere::perturbed_fibonacci_sphere(20_000, 1.0, Perturbation::Tangent(0.3), 2).unwrap();
    let all: Vec<Stencils> = testkit::thread_pools()
        .iter()
        .map(|pool| {
            pool.install(|| stencils(&Sphere, &old, &old_pos, &new, &new_pos, StencilKinds::ALL))
                .unwrap()
        })
        .collect();
    assert!(all[0].faces.iter().all(|f| f.is_valid()));
    assert!(all.iter().all(|s| *s == all[0]), "1, 2 and 4 threads");
}
