"""Making worlds: the default town, Willow Creek (3 and 25 residents), generated from code, its
base simulations and art, map previews, and the import of the original Smallville assets."""
