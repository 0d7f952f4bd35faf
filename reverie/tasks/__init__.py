"""The prompt units: one module per prompt (or small family), each registering its Task.

Importing this package registers every prompt, so ``reverie.llm.task.all_tasks()`` is complete.
The plain functions cognition calls live in the unit modules (e.g.
``reverie.tasks.poignancy.event_poignancy``).
"""

from reverie.tasks import (  # noqa: F401  (imported for their registrations)
    # planning and acting
    wake_up_hour,
    daily_plan,
    hourly_schedule,
    hourly_schedule_packed,
    task_decomp,
    action_location,
    pronunciatio,
    event_triple,
    object_state,
    new_decomp_schedule,
    decide_reaction,
    identity,
    action_packed,
    # memory, reflection and conversation
    poignancy,
    conversation_summary,
    focal_points,
    insights,
    relationship_summary,
    chat_utterance,
    convo_thoughts,
    # interview and history loading (server commands)
    interview,
    whisper,
    # evaluation
    interview_judge,
)


def product_tasks():
    """The registered tasks defined in this package (tests may register small ones of their own)."""
    from reverie.llm.task import all_tasks

    return {name: task for name, task in all_tasks().items() if task.schema.__module__.startswith(__name__ + ".")}
