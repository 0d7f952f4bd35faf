"""Parts of an action description (kept here for the prompt units; see :mod:`reverie.action_text`)."""

from reverie.action_text import main_action, subtask  # noqa: F401
