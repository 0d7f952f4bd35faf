"""The `prompts eval` arithmetic over ledger lines (the real run is in test_all_prompts)."""

from reverie.prompt_tools.evaluate import COLUMNS, column_widths, format_row, read_ledger, summarize


def line(prompt, attempts, fallback, p=100, c=10, s=1.0):
    return {
        "prompt": prompt,
        "attempts": attempts,
        "fallback": fallback,
        "prompt_tokens": p,
        "completion_tokens": c,
        "latency_s": s,
        "errors": [],
    }


def test_rows_count_first_attempt_final_and_fallback_rates():
    lines = [line("a", 1, False), line("a", 2, False), line("a", 3, True), line("b", 1, False, s=3.0)]
    rows, total = summarize(lines, ["a", "b", "c"])
    a, b, c = rows
    assert a.cells() == ("a", "3", "33", "67", "33", "2.00", "300", "30", "1.00")
    assert b.cells()[1:4] == ("1", "100", "100")
    assert c.calls == 0 and c.cells()[2] == "0"  # a prompt with no calls still gets its row
    assert total.cells() == ("TOTAL", "4", "50", "75", "25", "1.75", "400", "40", "1.50")


def test_table_lines_up(tmp_path):
    path = tmp_path / "ledger.jsonl"
    path.write_text('{"prompt": "insights", "attempts": 1, "fallback": false}\n\n', encoding="utf-8")
    rows, total = summarize(read_ledger(path), ["insights"])
    widths = column_widths(["insights"])
    header, row, last = (format_row(x, widths) for x in (COLUMNS, rows[0].cells(), total.cells()))
    assert len(header) == len(row) == len(last)
    assert read_ledger(tmp_path / "missing.jsonl") == []
