"""One simulation and its step loop: storage in the original layout, fork and resume, the lock,
checkpoints, seeds and whispered history, personas side by side. The commands that drive it are
in :mod:`reverie.console`, its measurements in :mod:`reverie.benchmarks` and :mod:`reverie.evaluation`."""
