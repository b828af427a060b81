#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
//! # Overview
//!
//! The demo pipeline behind `cargo xtask demo`: a Fibonacci planet, plates grown over its
//! mesh, a few edits that exercise the layer policies, and pictures and files written out.

pub mod demo;
pub mod plates;

/// The repository README's example, compiled and run as a doc test.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
