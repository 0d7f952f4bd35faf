"""The world: maze loading (matrix files), tile addresses and events, path finding,
world checks, the default-world generator and the import of the original assets."""
