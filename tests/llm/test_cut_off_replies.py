"""A reply cut off at max_tokens: kept, closed where it stopped, when that object passes every
check; sent back as cut off when it does not (a field missing, a check failing). The replies are
written here: the cut is what a server returns with finish_reason "length"."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from reverie.llm.reply_parser import ReplyParser, closed_where_cut
from reverie.llm.schema import call_schema
from reverie.tasks.relationship_summary import RELATIONSHIP_SUMMARY, RelationshipReply

INPUTS = {"speaker": "Maya Hale", "listener": "Daniel Hale", "statements": "Daniel Hale is married to Maya Hale"}
LENGTH = {"finish_reason": "length"}


def parser() -> ReplyParser:
    return ReplyParser(
        reply_model=RelationshipReply,
        call_schema=call_schema(RelationshipReply, {}),
        inputs=INPUTS,
        task=RELATIONSHIP_SUMMARY,
        task_name="relationship_summary",
    )


def test_a_summary_cut_inside_a_word_is_kept_without_that_word():
    cut = '{"summary": "Maya Hale is married to Daniel Hale and they run the house together with their son Mi'
    result, problems = parser().check(AIMessage(content=cut, response_metadata=LENGTH))
    assert problems == []
    assert result.summary == "Maya Hale is married to Daniel Hale and they run the house together with their son"


def test_a_cut_reply_that_fails_a_check_is_sent_back_as_cut_off():
    # Cut before it named the listener: the summary's own check fails, so the cut is what the model hears.
    cut = '{"summary": "This is Maya Hale\'s plan for Monday February 13: wake up and complete the morning rou'
    result, problems = parser().check(AIMessage(content=cut, response_metadata=LENGTH))
    assert result is None
    assert [p.message for p in problems] == ["the reply was cut off before the JSON object ended — answer shorter"]


def test_a_reply_that_stopped_by_itself_is_not_closed_by_the_code():
    cut = '{"summary": "Maya Hale is married to Daniel Hale and they'
    result, problems = parser().check(AIMessage(content=cut, response_metadata={"finish_reason": "stop"}))
    assert result is None and problems[0].message.startswith("not a valid JSON object")


def test_closing_a_cut_object():
    assert closed_where_cut('{"a": "one two thr') == {"a": "one two"}
    assert closed_where_cut('{"a": ["x", "y') == {"a": ["x", "y"]}
    assert closed_where_cut('{"a": "done", "b": {"c": 1') == {"a": "done", "b": {"c": 1}}
    assert closed_where_cut("no object at all") is None
