//! Feeds arbitrary bytes to the world loader: it must return an error or a world, never panic
//! or allocate without bound. A loaded world's typed layers are decoded too.
#![no_main]

use layers::{EdgeKind, LayerInfo, VertexKind};
use libfuzzer_sys::fuzz_target;

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance");

fuzz_target!(|data: &[u8]| {
    if let Ok(w) = world::World::load_from_slice(data) {
        let _ = w.try_layer(&HEIGHT);
        let _ = w.try_layer(&DISTANCE);
        let _ = w.save_to_vec();
    }
});
