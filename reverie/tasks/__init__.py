"""The prompt units: one module per prompt (or small family), each defining its Task.

``reverie.tasks.registry.product_tasks()`` lists every unit; whoever builds an ``LLM`` hands
it that registry. The plain functions cognition calls live in the unit modules (e.g.
``reverie.tasks.poignancy.event_poignancy``).
"""
