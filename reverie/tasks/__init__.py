"""The prompt units: one module per prompt (or small family), each defining its Task.

``reverie.tasks.registry.product_tasks()`` lists every unit; whoever builds an ``LLM`` hands
it that registry. The plain functions cognition calls live in the unit modules (e.g.
``reverie.tasks.poignancy.event_poignancy``). Beside the units, only what their checks share:
``common`` (reply base, text checks), ``clock`` and ``options`` (wording and choice lists), and
``day_rules`` + ``day_coherence`` (the rules a day keeps, which the planning units' validators
check). The tools that run prompts on their fixtures are in :mod:`reverie.prompt_tools`.
"""
