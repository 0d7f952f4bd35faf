"""`python -m reverie doctor`: check the configured model, memory, GPU and storage before a long run."""
