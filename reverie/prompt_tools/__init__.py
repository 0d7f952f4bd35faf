"""The prompt engineer's workbench, `python -m reverie prompts`: list, show, eval, compare and capture,
and the prompts' fixture cases (prompts/fixtures/) they run on."""
