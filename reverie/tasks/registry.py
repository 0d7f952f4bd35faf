"""Every prompt unit the product ships, listed in one place.

``product_tasks()`` is what the simulation, the bench, the doctor and the ``prompts``
commands hand to ``LLM(settings, tasks=...)``. A test that needs a task of its own builds
its own registry (``product_tasks().with_(task)`` or ``TaskRegistry([task])``).
"""

from __future__ import annotations

from reverie.llm.task import TaskRegistry
from reverie.tasks import (
    action_location,
    action_packed,
    actions_packed,
    chat_utterance,
    conversation_packed,
    conversation_summary,
    convo_thoughts,
    daily_plan,
    decide_reaction,
    event_triple,
    events_poignancy,
    focal_points,
    hourly_schedule,
    hourly_schedule_packed,
    identity,
    insights,
    interview,
    interview_judge,
    new_decomp_schedule,
    object_state,
    poignancy,
    pronunciatio,
    relationship_summary,
    task_decomp,
    thought_triples,
    wake_up_hour,
    whisper,
)


def product_tasks() -> TaskRegistry:
    """The shipped tasks, by prompt name."""
    return TaskRegistry(
        [
            # planning and acting
            wake_up_hour.WAKE_UP_HOUR,
            daily_plan.DAILY_PLAN,
            hourly_schedule.HOURLY_SCHEDULE,
            hourly_schedule_packed.HOURLY_SCHEDULE_PACKED,
            task_decomp.TASK_DECOMP,
            action_location.ACTION_SECTOR,
            action_location.ACTION_ARENA,
            action_location.ACTION_OBJECT,
            pronunciatio.PRONUNCIATIO,
            event_triple.EVENT_TRIPLE,
            event_triple.ACT_OBJ_EVENT_TRIPLE,
            object_state.ACT_OBJ_DESC,
            new_decomp_schedule.NEW_DECOMP_SCHEDULE,
            decide_reaction.DECIDE_TO_TALK,
            decide_reaction.DECIDE_TO_REACT,
            identity.IDENTITY_PLAN_NOTE,
            identity.IDENTITY_THOUGHT_NOTE,
            identity.IDENTITY_NEW_CURRENTLY,
            identity.IDENTITY_NEW_DAILY_REQ,
            action_packed.ACTION_PACKED,
            actions_packed.ACTIONS_PACKED,
            # memory, reflection and conversation
            poignancy.EVENT_POIGNANCY,
            poignancy.CHAT_POIGNANCY,
            events_poignancy.EVENTS_POIGNANCY,
            thought_triples.THOUGHT_TRIPLES,
            conversation_summary.SUMMARIZE_CONVERSATION,
            focal_points.FOCAL_POINTS,
            insights.INSIGHTS,
            insights.INSIGHTS_PACKED,
            relationship_summary.RELATIONSHIP_SUMMARY,
            chat_utterance.ITERATIVE_CHAT_UTTERANCE,
            conversation_packed.CONVERSATION_PACKED,
            convo_thoughts.PLANNING_THOUGHT_ON_CONVO,
            convo_thoughts.MEMO_ON_CONVO,
            convo_thoughts.CONVO_THOUGHTS_PACKED,
            # interview and history loading (server commands)
            interview.SAFETY_SCORE,
            interview.SUMMARIZE_IDEAS,
            interview.NEXT_CONVO_LINE,
            whisper.WHISPER_INNER_THOUGHT,
            # evaluation
            interview_judge.INTERVIEW_JUDGE,
        ]
    )
