//! Tests of [`World::insert_points_in_rounds_with`]: the world of an insertion followed by
//! `set_layer_values`, bit for bit, through undo, redo and save; refusals change nothing.

use super::near::tests::{planet, round_points};
use super::{EditError, NewValues, ValuesError};
use crate::{History, World, WorldError};
use glam::DVec3;
use layers::{EdgeKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Face, Vertex};

const AGE: LayerInfo<f32, VertexKind> = LayerInfo::new("age").interpolation(Interpolation::Lerp);
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
/// Not given: replayed as usual.
const HEAT: LayerInfo<f32, VertexKind> = LayerInfo::new("heat").interpolation(Interpolation::Lerp);
const LENGTH: LayerInfo<f32, EdgeKind> = LayerInfo::new("length").initial(-1.0);
const RANGED: LayerInfo<f32, VertexKind> = LayerInfo::new("ranged")
    .range(0.0, 10.0)
    .auto_validate(true);
const WIPED: LayerInfo<f32, VertexKind> =
    LayerInfo::new("wiped").interpolation(Interpolation::ResetLayer);

/// The test planet (dead slots to reuse) with data in every layer.
fn world() -> World {
    let (mut w, _) = planet();
    let n = w.mesh().vertex_slots();
    w.update_layer(&AGE, |l| {
        (0..n).for_each(|i| l.as_mut_slice()[i] = i as f32 * 0.5)
    })
    .unwrap();
    w.update_layer(&PLATE, |l| {
        (0..n).for_each(|i| l.as_mut_slice()[i] = (i % 7) as u32)
    })
    .unwrap();
    w.update_layer(&HEAT, |l| l.fill(3.0)).unwrap();
    w.update_layer(&LENGTH, |l| l.fill(2.0)).unwrap();
    w.update_layer(&RANGED, |l| l.fill(1.0)).unwrap();
    w
}

/// The values a caller gives the `k`-th new vertex (different from any interpolation).
fn age_of(k: usize) -> f32 {
    -1.0 - k as f32
}

fn plate_of(k: usize) -> u32 {
    100 + k as u32
}

#[test]
fn given_values_make_the_world_of_an_insertion_and_set_values() {
    let w = world();
    let first: Vec<Face> = w.mesh().faces().step_by(37).collect();
    // Reference: the rounds, then the values written over the replay's.
    let mut plain = w.clone();
    let (rounds, report) = plain
        .insert_points_in_rounds(4, |mesh, pos, new| round_points(mesh, pos, new, &first))
        .unwrap();
    let new: Vec<Vertex> = rounds.concat();
    plain.set_layer_values(&AGE, &new, age_of).unwrap();
    plain.set_layer_values(&PLATE, &new, plate_of).unwrap();
    // Given.
    let mut given = w.clone();
    let mut history = History::new(usize::MAX);
    history.commit("start", &mut given);
    let mut values = NewValues::new();
    let (age, plate) = (values.column(&AGE), values.column(&PLATE));
    // The values of a round's `count` new vertices, numbered on from `made`.
    let give = |values: &mut NewValues, made: &mut usize, count: usize| {
        for k in *made..*made + count {
            values.values_mut(age).push(age_of(k));
            values.values_mut(plate).push(plate_of(k));
        }
        *made += count;
    };
    let mut made = 0;
    let (got, got_report) = given
        .insert_points_in_rounds_with(4, &mut values, |mesh, pos, new, values| {
            let points = round_points(mesh, pos, new, &first);
            give(values, &mut made, points.len());
            points
        })
        .unwrap();
    assert_eq!(got, rounds);
    assert!(new.len() > 100 && new.iter().any(|v| v.index() < w.mesh().vertex_slots()));
    assert_eq!(got_report.created, report.created);
    assert_eq!(got_report.edges, report.edges);
    assert!(
        given == plain,
        "the world of the insertion and set_layer_values"
    );
    // Without the report: the same world, and the new vertices' rings hold every edge the
    // report names.
    let mut quiet = w.clone();
    let mut made = 0;
    let got = quiet
        .insert_points_in_rounds_with_unreported(4, &mut values, |mesh, pos, new, values| {
            let points = round_points(mesh, pos, new, &first);
            give(values, &mut made, points.len());
            points
        })
        .unwrap();
    assert_eq!(got, rounds);
    assert!(quiet == given, "the world without the report");
    let mesh = quiet.mesh();
    let mut around: Vec<quadedge::Edge> = new
        .iter()
        .flat_map(|&v| mesh.outgoing(v).map(quadedge::Edge::base))
        .collect();
    around.sort_unstable();
    around.dedup();
    assert!(
        report
            .edges
            .iter()
            .all(|e| around.binary_search(&e.base()).is_ok()),
        "every edge the insertion made or flipped ends at a new vertex"
    );
    assert_eq!(values.values(age).len(), new.len());
    assert_eq!(given.layer(&AGE).unwrap()[new[3]], age_of(3));
    // Undo, redo and save see the same world.
    history.commit("insert", &mut given);
    history.undo(&mut given).unwrap();
    assert!(given == w);
    history.redo(&mut given).unwrap();
    assert!(given == plain);
    let back = World::load_from_slice(&given.save_to_vec().unwrap()).unwrap();
    assert!(back == plain);
}

#[test]
fn given_values_into_a_layer_still_encoded() {
    let w = world();
    let mut loaded = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    let mut plain = loaded.clone();
    let points = |mesh: &quadedge::Mesh, pos: &[DVec3], new: &[Vertex]| {
        let first: Vec<Face> = mesh.faces().step_by(53).collect();
        if new.is_empty() {
            round_points(mesh, pos, new, &first)
        } else {
            Vec::new()
        }
    };
    let (rounds, _) = plain.insert_points_in_rounds(2, points).unwrap();
    plain.set_layer_values(&AGE, &rounds[0], age_of).unwrap();
    let mut values = NewValues::new();
    let age = values.column(&AGE);
    loaded
        .insert_points_in_rounds_with(2, &mut values, |mesh, pos, new, values| {
            let p = points(mesh, pos, new);
            values.values_mut(age).extend((0..p.len()).map(age_of));
            p
        })
        .unwrap();
    assert!(loaded == plain);
}

#[test]
fn refused_values_leave_the_world_unchanged() {
    let mut w = world();
    w.update_layer(&WIPED, |l| l.fill(1.0)).unwrap();
    let before = w.clone();
    let first: Vec<Face> = w.mesh().faces().step_by(61).collect();
    // One value short in the second round.
    let mut values = NewValues::new();
    let age = values.column(&AGE);
    let mut round = 0;
    let r = w.insert_points_in_rounds_with(3, &mut values, |mesh, pos, new, values| {
        let points = round_points(mesh, pos, new, &first);
        round += 1;
        let n = if round == 2 {
            points.len() - 1
        } else {
            points.len()
        };
        values.values_mut(age).extend((0..n).map(age_of));
        points
    });
    match r {
        Err(EditError::Values(ValuesError::Count {
            layer,
            expected,
            given,
        })) => {
            assert_eq!(layer, "age");
            assert_eq!(expected, given + 1);
        }
        r => panic!("{r:?}"),
    }
    assert!(w == before);
    assert!(values.values(age).is_empty(), "emptied");
    // Bad columns, refused before any insertion.
    let fill = |info: &LayerInfo<f32, VertexKind>, value: f32| {
        let mut values = NewValues::new();
        let c = values.column(info);
        let mut w = before.clone();
        let r = w.insert_points_in_rounds_with(2, &mut values, |mesh, pos, new, values| {
            let points = round_points(mesh, pos, new, &first);
            values.values_mut(c).extend(points.iter().map(|_| value));
            points
        });
        match &r {
            Ok((rounds, _)) => assert_eq!(w.layer(info).unwrap()[rounds[1][0]], value),
            Err(_) => assert!(w == before),
        }
        r.map(|_| ())
    };
    let r = fill(&RANGED, 11.0);
    assert!(
        matches!(r, Err(EditError::World(WorldError::Invalid(_)))),
        "{r:?}"
    );
    assert!(fill(&RANGED, 9.0).is_ok());
    assert!(matches!(
        fill(&LayerInfo::new("missing"), 0.0),
        Err(EditError::World(WorldError::NoSuchLayer(_)))
    ));
    assert!(matches!(
        fill(
            &LayerInfo::new("age").interpolation(Interpolation::MaxWeight),
            0.0
        ),
        Err(EditError::World(WorldError::LayerSettingsDiffer(_)))
    ));
    assert!(matches!(
        fill(&WIPED, 0.0),
        Err(EditError::Values(ValuesError::WholeLayer(_)))
    ));
    let mut values = NewValues::new();
    values.column(&AGE);
    values.column(&AGE);
    let r = w.insert_points_in_rounds_with(1, &mut values, |_, _, _, _| Vec::new());
    assert!(matches!(r, Err(EditError::Values(ValuesError::Twice(_)))));
    let mut values = NewValues::new();
    values.column(&super::SPHERE_POSITION);
    let r = w.insert_points_in_rounds_with(1, &mut values, |_, _, _, _| Vec::new());
    assert!(matches!(r, Err(EditError::Values(ValuesError::Positions))));
    assert!(w == before);
}

#[test]
fn given_values_for_every_layer_leave_nothing_to_replay() {
    let (mut w, _) = planet();
    w.update_layer(&AGE, |l| l.fill(4.0)).unwrap();
    let first: Vec<Face> = w.mesh().faces().step_by(29).collect();
    let mut plain = w.clone();
    let (rounds, _) = plain
        .insert_points_in_rounds(3, |mesh, pos, new| round_points(mesh, pos, new, &first))
        .unwrap();
    plain
        .set_layer_values(&AGE, &rounds.concat(), age_of)
        .unwrap();
    let mut values = NewValues::new();
    let age = values.column(&AGE);
    let version = w.mesh_version();
    let (got, _) = w
        .insert_points_in_rounds_with(3, &mut values, |mesh, pos, new, values| {
            let points = round_points(mesh, pos, new, &first);
            let n = values.values(age).len();
            values
                .values_mut(age)
                .extend((n..n + points.len()).map(age_of));
            points
        })
        .unwrap();
    assert_eq!(got, rounds);
    assert!(w == plain);
    assert!(w.mesh_version() > version);
}
