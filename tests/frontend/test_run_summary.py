"""The run page's pieces: the ledger summary and the timeline renderer."""

from __future__ import annotations

import json

from tests.frontend import djangosetup

djangosetup.setup()

from translator import ledger, markdown_lite  # noqa: E402  (needs Django's settings)


def write_ledger(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + "{broken\n\n", encoding="utf-8")


def test_ledger_sums_per_prompt(tmp_path):
    path = tmp_path / "llm_calls.jsonl"
    write_ledger(
        path,
        [
            {
                "prompt": "a",
                "role": "cheap",
                "attempts": 1,
                "prompt_tokens": 10,
                "completion_tokens": 2,
                "latency_s": 1.0,
                "fallback": False,
                "step": 0,
                "game_time": "February 13, 2023, 07:00:00",
            },
            {
                "prompt": "a",
                "role": "cheap",
                "attempts": 3,
                "prompt_tokens": 20,
                "completion_tokens": 4,
                "latency_s": 3.0,
                "fallback": True,
                "step": 5,
                "game_time": "February 13, 2023, 09:30:00",
            },
            {
                "prompt": "b",
                "role": "strong",
                "attempts": 1,
                "prompt_tokens": 5,
                "completion_tokens": 1,
                "latency_s": 0.5,
                "fallback": False,
                "step": 9,
                "game_time": "February 13, 2023, 10:59:00",
            },
        ],
    )
    s = ledger.summary(path)
    a = next(r for r in s["rows"] if r["prompt"] == "a")
    assert (a["calls"], a["tokens"], a["repairs"], a["repaired_calls"], a["fallbacks"]) == (2, 36, 2, 1, 1)
    assert a["latency_mean"] == 2.0 and a["latency_p95"] == 3.0
    assert s["totals"]["calls"] == 3 and s["bad_lines"] == 1
    # 4 hours of game time in 5-minute bars; every call lands in one bar.
    assert s["bin_unit"] == "game time, 5 min per bar"
    assert sum(b["calls"] for b in s["bins"]) == 3 and s["bins"][0]["label"] == "Feb 13 07:00"


def test_ledger_without_game_time_bins_by_step(tmp_path):
    path = tmp_path / "llm_calls.jsonl"
    write_ledger(path, [{"prompt": "a", "step": s, "prompt_tokens": 1} for s in range(0, 300, 3)])
    s = ledger.summary(path)
    assert s["bin_unit"].startswith("steps")
    assert sum(b["calls"] for b in s["bins"]) == 100 and len(s["bins"]) <= ledger.MAX_BINS


def test_missing_ledger_is_none(tmp_path):
    assert ledger.summary(tmp_path / "nope.jsonl") is None


def test_markdown_renders_and_escapes():
    html = markdown_lite.render(
        "# Title\n\nSome *words* and **bold** `code` <b>raw</b>\n\n- one\n- two\n\n1. first\n\n"
        "  > **A**: hi\n  > **B**: hello\n\n```\n<x>\n```\n"
    )
    assert "<h2>Title</h2>" in html
    assert "<em>words</em>" in html and "<strong>bold</strong>" in html and "<code>code</code>" in html
    assert "&lt;b&gt;raw&lt;/b&gt;" in html and "<b>" not in html
    assert "<ul><li>one</li><li>two</li></ul>" in html and "<ol><li>first</li></ol>" in html
    assert "<blockquote><strong>A</strong>: hi<br><strong>B</strong>: hello</blockquote>" in html
    assert "<pre><code>&lt;x&gt;\n</code></pre>" in html
