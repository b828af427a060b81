//! The examples run as tests, so they cannot rot.

#[path = "../examples/moving_planet.rs"]
mod moving_planet;

#[test]
fn moving_planet_tells_the_truth() {
    assert_eq!(moving_planet::run(4000).unwrap(), (true, true));
}
