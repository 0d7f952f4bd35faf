"""The simulation at the command line: the interactive `Enter option:` server, headless
`run`, `compress`, and what they share (opening a simulation, running steps, the end-of-run summary)."""
