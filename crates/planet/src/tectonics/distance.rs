//! Distance (km) to the nearest of a set of source points, spread over the mesh: each vertex
//! learns the source nearest to it by great-circle distance, not by hops, so the field is the
//! same whatever the vertex spacing.
//!
//! A label-correcting sweep: a vertex taken from the queue offers its source to its
//! neighbours, which keep it when it is nearer to them than what they have (and are queued
//! again). Chord lengths compare (the same order as arcs, cheaper), converted to arcs at the
//! end. A first-in first-out queue visits the vertices ring by ring from the sources, so few
//! are improved twice; no heap.

use glam::DVec3;
use quadedge::{Mesh, Vertex};
use std::collections::VecDeque;

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

/// The great-circle distance (km) from each vertex to its nearest source, up to `limit_km`
/// ([`FAR`] beyond), and that source's tag (`u32::MAX` when none); with `region`, spreading
/// only between vertices of the same region value.
pub fn nearest_sources(
    mesh: &Mesh,
    pos: &[DVec3],
    radius_km: f64,
    sources: &[Source],
    limit_km: f64,
    region: Option<&[u32]>,
) -> (Vec<f32>, Vec<u32>) {
    let n = mesh.vertex_slots();
    let mut key = vec![f64::INFINITY; n];
    let mut tag = vec![u32::MAX; n];
    let mut src = vec![u32::MAX; n];
    // Chord limit for the arc limit.
    let arc = (limit_km / radius_km).min(std::f64::consts::PI);
    let chord_limit = 2.0 * radius_km * (0.5 * arc).sin();
    let mut queue = VecDeque::new();
    let mut queued = vec![false; n];
    for (i, s) in sources.iter().enumerate() {
        let v = s.vertex.index();
        let d = pos[v].distance(s.point);
        if d <= chord_limit && d < key[v] {
            key[v] = d;
            tag[v] = s.tag;
            src[v] = i as u32;
            if !queued[v] {
                queued[v] = true;
                queue.push_back(v as u32);
            }
        }
    }
    while let Some(v) = queue.pop_front() {
        let v = v as usize;
        queued[v] = false;
        let s = sources[src[v] as usize];
        for u in mesh.neighbors(Vertex::new(v as u32)) {
            let u = u.index();
            if region.is_some_and(|r| r[u] != r[v]) {
                continue;
            }
            let d = pos[u].distance(s.point);
            if d < key[u] && d <= chord_limit {
                key[u] = d;
                tag[u] = s.tag;
                src[u] = src[v];
                if !queued[u] {
                    queued[u] = true;
                    queue.push_back(u as u32);
                }
            }
        }
    }
    let dist = key
        .iter()
        .map(|&c| {
            if c.is_finite() {
                (2.0 * radius_km * (0.5 * c / radius_km).clamp(0.0, 1.0).asin()) as f32
            } else {
                FAR
            }
        })
        .collect();
    (dist, tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_great_circle_distances_to_the_nearest_source() {
        let (mesh, pos) = sphere::fibonacci_sphere(4000, 6371.0, 0.0, 1).unwrap();
        let sources = [
            Source {
                vertex: Vertex::new(10),
                point: pos[10],
                tag: 1,
            },
            Source {
                vertex: Vertex::new(3000),
                point: pos[3000],
                tag: 2,
            },
        ];
        let (d, t) = nearest_sources(&mesh, &pos, 6371.0, &sources, 3000.0, None);
        for v in 0..4000 {
            let exact = sources
                .iter()
                .map(|s| {
                    (
                        sphere::geometry::great_circle_distance(pos[v], s.point),
                        s.tag,
                    )
                })
                .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
            if exact.0 < 2900.0 {
                assert!(
                    (f64::from(d[v]) - exact.0).abs() < 1.0,
                    "{v}: {} vs {}",
                    d[v],
                    exact.0
                );
                assert_eq!(t[v], exact.1);
            }
            if exact.0 > 3100.0 {
                assert_eq!(d[v], FAR);
            }
        }
    }
}
