"""Benchmarks that print figures: `bench` (a short headless run, or a game hour against a model
server) and the peak memory of a run of prompts. Targets live here, never in timed tests."""
