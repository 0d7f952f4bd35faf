"""The paper's measurements: `evaluate` (interviews judged into figures), `experiment` (the two-day
diffusion experiment and its table), the measured 25-person game day, and the typed report they write."""
