"""Prompts cut to the context window: only growing inputs lose lines, from their least relevant end."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from reverie.llm.prompt_size import Drop, PromptTooLong, Trim, estimate_tokens, fit

INSTRUCTIONS = "You rate memories. Reply with one JSON object."


def render(inputs: dict) -> list:
    return [
        SystemMessage(content=INSTRUCTIONS),
        HumanMessage(content=f"Memories:\n{inputs['memories']}\n\nChat:\n{inputs['chat']}\n\nAnswer now."),
    ]


def words(messages) -> int:
    """A counter where a token is a word, so the test can reason about sizes."""
    return sum(len(str(m.content).split()) for m in messages)


MEMORIES = "\n".join(f"memory {i} most relevant first" for i in range(200))
CHAT = "\n".join(f"line {i} of the chat, oldest first" for i in range(100))
TRIMS = (Trim("memories", Drop.LAST), Trim("chat", Drop.FIRST))


def test_a_prompt_that_fits_is_sent_as_it_is():
    fitted = fit(render, {"memories": "memory 0", "chat": "line 0"}, TRIMS, [], words, budget=500)
    assert fitted.trimmed_tokens == 0 and fitted.inputs == {"memories": "memory 0", "chat": "line 0"}


def test_growing_inputs_lose_their_least_relevant_lines_and_instructions_stay():
    fitted = fit(render, {"memories": MEMORIES, "chat": CHAT}, TRIMS, [], words, budget=400)
    assert fitted.prompt_tokens <= 400 and words(fitted.messages) == fitted.prompt_tokens
    assert fitted.trimmed_tokens == words(render({"memories": MEMORIES, "chat": CHAT})) - fitted.prompt_tokens
    memories, chat = fitted.inputs["memories"].splitlines(), fitted.inputs["chat"].splitlines()
    assert memories[0] == "memory 0 most relevant first" and memories == MEMORIES.splitlines()[: len(memories)]
    assert chat[-1] == "line 99 of the chat, oldest first" and chat == CHAT.splitlines()[-len(chat) :]
    assert fitted.messages[0].content == INSTRUCTIONS and fitted.messages[1].content.endswith("Answer now.")


def test_only_the_latest_repair_exchange_is_kept_when_the_window_is_full():
    exchanges = [
        AIMessage(content="bad " * 60),
        HumanMessage(content="fix 1 " * 30),
        AIMessage(content="worse " * 60),
        HumanMessage(content="fix 2 " * 30),
    ]
    fitted = fit(render, {"memories": MEMORIES, "chat": CHAT}, TRIMS, exchanges, words, budget=300)
    assert fitted.messages[-2:] == exchanges[-2:] and exchanges[0] not in fitted.messages
    assert fitted.prompt_tokens <= 300


def test_a_prompt_whose_instructions_alone_do_not_fit_is_refused():
    with pytest.raises(PromptTooLong) as error:
        fit(render, {"memories": MEMORIES, "chat": CHAT}, TRIMS, [], words, budget=8)
    assert "n_ctx" in str(error.value)


def test_one_huge_line_is_shortened_not_kept_whole():
    huge = "word " * 5000
    fitted = fit(render, {"memories": huge, "chat": "hi"}, TRIMS, [], words, budget=300)
    assert fitted.prompt_tokens <= 300 and fitted.inputs["memories"].startswith("word word")


def test_the_estimate_for_servers_over_counts_english():
    text = "Nora Bennett opens the cafe at seven and greets the first customers of the day. " * 20
    messages = [HumanMessage(content=text)]
    assert estimate_tokens(messages) >= len(text.split()) * 1.2  # English averages about 1.3 tokens a word


def test_a_runaway_reply_keeps_only_its_start_so_the_correction_still_fits():
    exchanges = [AIMessage(content="{" + "x " * 3000), HumanMessage(content="reply with one JSON object")]
    fitted = fit(render, {"memories": "memory 0", "chat": "line 0"}, TRIMS, exchanges, words, budget=400)
    reply, correction = fitted.messages[-2:]
    assert fitted.prompt_tokens <= 400 and correction == exchanges[1]
    assert reply.content.startswith("{x x") and len(reply.content) < len(exchanges[0].content)
