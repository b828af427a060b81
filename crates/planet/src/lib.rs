#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
//! # Overview
//!
//! The demo pipeline behind `cargo xtask demo`: a small tectonic planet. A Fibonacci planet,
//! plates grown over its mesh, a few edits that exercise the layer policies, then plates
//! turning with the mesh restored to Delaunay after each step while relief grows where they
//! meet, the mesh refined along plate boundaries and the world resampled once onto a fresh
//! sphere; pictures (plates, elevation, heightmap, animation) and files written out.

pub mod demo;
pub mod plates;
