"""Pixel art of the default world, drawn with Pillow (no image files are read)."""
