//! Feeds arbitrary bytes to the world loader: it must return an error or a world, never panic
//! or allocate without bound. A loaded world's typed layers are decoded (pending journals
//! replayed), must fit the mesh and validate, and the world must save and load back equal.
#![no_main]

use glam::{DVec2, Vec3};
use layers::{DirectedEdgeKind, DualEdgeKind, EdgeKind, FaceKind, LayerInfo, VertexKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(w) = world::World::load_from_slice(data) else {
        return;
    };
    w.mesh().check().expect("a loaded mesh passes check()");
    let sizes = layers::Sizes::of(w.mesh());
    macro_rules! layer {
        ($t:ty, $k:ty, $name:expr) => {
            if let Ok(Some(l)) = w.try_layer(&LayerInfo::<$t, $k>::new($name)) {
                assert_eq!(l.len(), <$k as layers::Kind>::KIND.slots(sizes));
                l.validate().expect("a decoded layer validates");
            }
        };
    }
    layer!(f32, VertexKind, "height");
    layer!(f32, EdgeKind, "plate_distance");
    layer!(Vec3, VertexKind, "color");
    layer!(u16, FaceKind, "plate");
    layer!(bool, DualEdgeKind, "border");
    layer!(DVec2, DirectedEdgeKind, "flow");
    let bytes = w.save_to_vec().expect("a loaded world saves");
    let back = world::World::load_from_slice(&bytes).expect("a saved world loads");
    assert!(back == w);
});
