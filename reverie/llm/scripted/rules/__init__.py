"""The scripted rules, one module per family of prompts: ``RULES[prompt name](call) -> answer``."""

from reverie.llm.scripted.rules import interview, memory, places, planning, social

RULES = {**social.RULES, **memory.RULES, **planning.RULES, **places.RULES, **interview.RULES}
