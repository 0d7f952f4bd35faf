"""The world at run time: maze loading (matrix files), tile addresses and events, path finding
and world checks. The worlds themselves are made in :mod:`reverie.worldgen`."""
