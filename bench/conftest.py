"""Benchmarks run with: pytest bench/ --benchmark-only (not part of the test suite)."""
