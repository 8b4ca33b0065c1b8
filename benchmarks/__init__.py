"""`make bench`: build and service benchmarks on this machine (medians and percentiles, with baselines)."""
