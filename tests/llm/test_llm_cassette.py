"""Record / replay: a recorded run replays to identical answers with no model at all."""

from __future__ import annotations

import json

import pytest

from llm_support import CHOICES, INPUTS, TASK, TASKS
from reverie.llm import LLM, CassetteMiss


def test_replay_gives_identical_answers_without_a_model(settings, scripted, tmp_path):
    """Scripted for the recording: a wrong reply, then valid ones (so a repair is replayed too)."""
    model = scripted(
        '{"hour": 4, "place": "attic"}', '{"hour": 9, "place": "bathroom"}', '{"hour": 6, "place": "kitchen"}'
    )
    tape = tmp_path / "calls.tape.jsonl"
    recorder = LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, record=tape)
    other = dict(INPUTS, name="Klaus")
    recorded = [recorder.ask(TASK, INPUTS, choices=CHOICES), recorder.ask(TASK, other, choices=CHOICES)]
    assert len(model.calls) == 3
    assert [json.loads(line)["attempt"] for line in tape.read_text().splitlines()] == [1, 2, 1]

    settings.models.cheap.path = settings.models.strong.path = str(tmp_path / "no-such-model.gguf")
    player = LLM.from_settings(settings, tasks=TASKS, replay=tape)
    replayed = [player.ask(TASK, INPUTS, choices=CHOICES), player.ask(TASK, other, choices=CHOICES)]

    assert [r.model_dump_json() for r in replayed] == [r.model_dump_json() for r in recorded]
    assert player._models is None, "no chat model was built"

    def counts(llm):
        return {k: v for k, v in llm.ledger.summary()[TASK].items() if k != "latency_s"}

    assert (
        counts(player)
        == counts(recorder)
        == {
            "calls": 2,
            "first_attempt_valid": 1,
            "repaired": 1,
            "fallbacks": 0,
            "failed": 0,
            "prompt_tokens": 120,
            "completion_tokens": 27,
            "trimmed_tokens": 0,
        }
    )
    with pytest.raises(CassetteMiss, match="no recorded reply for prompt 'llm_test_wake_up'"):
        player.ask(TASK, dict(INPUTS, name="Isabella"), choices=CHOICES)


def test_a_call_cut_to_the_context_window_replays_from_its_untrimmed_conversation(settings, scripted, tmp_path):
    """Scripted for the recording: a long wrong reply whose repair exchange must be cut to fit, then a valid one."""
    from reverie.llm.prompt_size import estimate_tokens

    first = LLM(settings, tasks=TASKS).chain.render(TASK, INPUTS, choices=CHOICES)
    for role in (settings.models.strong, settings.models.cheap):
        # Room for the first prompt and some 170 tokens more: the repair exchange (the refused reply,
        # echoed cut to what max_tokens could hold, and its correction) needs a little more, so
        # the second attempt fits only once its growing inputs are cut.
        role.n_ctx = estimate_tokens(first) + role.max_tokens + 170
    model = scripted('{"hour": 4, "place": "attic"} ' + "and so on " * 60, '{"hour": 9, "place": "bathroom"}')
    tape = tmp_path / "calls.tape.jsonl"
    recorder = LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, record=tape)
    recorded = recorder.ask(TASK, INPUTS, choices=CHOICES)
    assert recorded.hour == 9 and recorder.ledger.last["trimmed_tokens"] > 0
    taped = [json.loads(line) for line in tape.read_text().splitlines()]
    sent = [{"role": m.type, "content": m.content} for m in model.calls[1][0]]
    assert taped[1]["messages"] != sent, "the model got the cut conversation"
    assert len(taped[1]["messages"]) == len(sent) and taped[1]["messages"][-1] == sent[-1]

    settings.models.cheap.path = settings.models.strong.path = str(tmp_path / "no-such-model.gguf")
    player = LLM.from_settings(settings, tasks=TASKS, replay=tape)
    assert player.ask(TASK, INPUTS, choices=CHOICES) == recorded
    assert player.ledger.last["attempts"] == 2 and player._models is None


@pytest.mark.parametrize("files", [{"record": "a.jsonl", "replay": "b.jsonl"}, {"ledger": "calls.jsonl"}])
def test_a_run_files_mistake_stops_before_anything_is_written(settings, files, tmp_path):
    """Both ends of a cassette at once, or a keyword the run's files do not have (``ledger`` for
    ``ledger_path``), stop the constructor with the mistake named."""
    given = {key: tmp_path / "run" / name for key, name in files.items()}
    with pytest.raises((ValueError, TypeError)) as info:
        LLM.from_settings(settings, tasks=TASKS, **given)
    assert ("cannot both be set" if "replay" in files else "'ledger'") in str(info.value)
    assert not (tmp_path / "run").exists()
