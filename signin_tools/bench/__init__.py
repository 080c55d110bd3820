"""Drivers for the benchmark parts in scripts/bench.d: each measures one layer beside a floor or
baseline measured in the same run, bounded in count and time."""
