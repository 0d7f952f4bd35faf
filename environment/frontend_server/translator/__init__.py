"""The environment server's app: pages, the file protocol with the simulation, run dashboards."""
