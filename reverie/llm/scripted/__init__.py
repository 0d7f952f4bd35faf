"""The scripted town model (``--model scripted``): answers by rule from each prompt's own inputs.
See :mod:`reverie.llm.scripted.model`."""

from reverie.llm.scripted.model import SCRIPTED, ScriptedChatModel, scripted_models

__all__ = ["SCRIPTED", "ScriptedChatModel", "scripted_models"]
