"""An opening line that says it ends the conversation: the line is kept, the talk goes on."""

from __future__ import annotations

from reverie.tasks.chat_utterance import UtteranceReply
from reverie.prompt_tools.fixtures import inputs_with
from reverie.tasks.registry import product_tasks


def test_an_opening_line_never_ends_the_conversation_but_a_later_one_may():
    task = product_tasks()["iterative_chat_utterance"]
    opening = inputs_with(task, conversation="")
    reply = UtteranceReply.model_validate(
        {"utterance": "Hi Maria! Studying hard again today?", "end": True}, context={"inputs": opening}
    )
    assert reply.utterance == "Hi Maria! Studying hard again today?" and reply.end is False
    later = inputs_with(task, conversation="Maria Lopez: Hi Isabella!\nIsabella Rodriguez: Hi Maria, how are you?")
    assert (
        UtteranceReply.model_validate(
            {"utterance": "I have to run, see you!", "end": True}, context={"inputs": later}
        ).end
        is True
    )
