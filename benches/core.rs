//! Benchmarks of the rules core.

fn main() {}
