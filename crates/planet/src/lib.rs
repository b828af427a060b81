#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
//! # Overview
//!
//! [`tectonics`] is the model: plates that move, consume and make crust, collide, suture and
//! rift on any world with a position layer, one [`tectonics::Tectonics::step`] at a time, in
//! km, Myr and metres. [`demo`] is the pipeline behind `cargo xtask demo`: a Fibonacci planet,
//! its tectonic history, then pictures (plates, elevation, heightmap, animation) and files.
//! [`plates`] keeps a flood fill for callers that grow plates by hops.

pub mod demo;
pub mod plates;
pub mod tectonics;
