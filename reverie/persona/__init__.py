"""A persona and its cognitive stages: perceive, retrieve, plan, reflect, execute, converse."""
