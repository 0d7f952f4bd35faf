"""A reflection shows each memory text once, and an insight citing it cites every memory that
holds it (docs/FIDELITY.md, "A reflection shows each memory text once").

Nora Bennett of our base world, the real embedder and memory, and the real LLM facade over a
scripted fake chat model (a fast smoke test: the fake answers by prompt name, so what is
checked is what the prompts were shown and which memories the stored insight cites).
"""

from __future__ import annotations

from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.persona.reflect import run_reflect
from reverie.persona.thoughts import NewThought, add_thoughts
from reverie.tasks.registry import product_tasks
from reverie import PROJECT_ROOT
from tests.persona.test_reused_answers import nora, world  # noqa: F401 (the fixtures: Nora of the base world)

REPEATED = "the bed is being slept in"


def _insight(call):
    """Cite the statement numbered with the repeated text."""
    lines = [line for line in call.user_text.splitlines() if line.endswith(REPEATED)]
    number = lines[0].split(".", 1)[0] if lines else "0"
    return {"insights": [{"insight": "Nora Bennett sleeps well at home these days", "evidence": [number]}]}


def test_each_text_is_one_statement_and_its_memories_are_all_cited(nora):
    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    model = FakeChatModel(
        replies={
            "event_triple": [{"predicate": "thinks", "target": "about the cafe"}],
            "events_poignancy": [lambda call: {"ratings": [2] * call.schema["properties"]["ratings"]["maxItems"]}],
            "event_poignancy": [{"rating": 2}],
            "focal_points": [{"questions": ["How does Nora Bennett sleep?"]}],
            "insights": [_insight],
        }
    )
    llm = LLM(settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model})
    repeated = add_thoughts(
        nora, llm, [NewThought(REPEATED) for _ in range(3)] + [NewThought("Nora Bennett bakes scones")]
    )[:3]
    assert len({node.node_id for node in repeated}) == 3
    before = {node.node_id for node in nora.a_mem.seq_thought}
    nora.scratch.importance_ele_n = 10  # the latest ten memories go to the focal points

    run_reflect(nora, llm)

    focal = next(call for call in model.calls if call.prompt == "focal_points")
    assert focal.user_text.count(REPEATED) == 1, "the latest memories: each text once"
    shown = next(call for call in model.calls if call.prompt == "insights")
    assert shown.user_text.count(REPEATED) == 1, "the retrieved memories: each text once"
    new = [node for node in nora.a_mem.seq_thought if node.node_id not in before]
    insight = next(node for node in new if node.embedding_key.startswith("Nora Bennett sleeps well"))
    assert set(insight.filling) == {node.node_id for node in repeated}, "citing the text cites all three memories"
