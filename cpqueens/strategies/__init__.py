"""The planner and the ways to count a model (splits, symmetry classes, hole sums, Burnside)."""
