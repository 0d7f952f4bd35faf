"""Simulations: storage in the original layout, the step loop, the interactive and headless commands."""
