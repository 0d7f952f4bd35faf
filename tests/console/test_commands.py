"""The `Enter option:` parser: every command of the original, and one-line hints for the rest."""

import pytest

from reverie.errors import UserError
from reverie.console.commands import parse_command, resolve_persona


@pytest.mark.parametrize(
    "line, name",
    [
        ("f", "fin"),
        ("fin", "fin"),
        ("FINISH", "fin"),
        ("save and finish", "fin"),
        ("save", "save"),
        ("exit", "exit"),
        ("start path tester mode", "path_tester"),
        ("print current time", "print_time"),
        ("print all persona schedule", "print_all_schedules"),
        ("help", "help"),
    ],
)
def test_simple_commands(line, name):
    assert parse_command(line).name == name


def test_run_takes_a_positive_number():
    assert parse_command("run 3").number == 3
    assert parse_command("  RUN   12 ").number == 12
    for bad in ("run", "run x", "run -1", "run 0", "run 2.5"):
        with pytest.raises(UserError, match="usage: run"):
            parse_command(bad)


@pytest.mark.parametrize(
    "line, name",
    [
        ("print persona schedule Isabella Rodriguez", "print_schedule"),
        ("print hourly org persona schedule Isabella Rodriguez", "print_hourly_schedule"),
        ("print persona current tile Isabella Rodriguez", "print_tile"),
        ("print persona chatting with buffer Isabella Rodriguez", "print_buffer"),
        ("print persona spatial memory Isabella Rodriguez", "print_spatial"),
    ],
)
def test_persona_commands_keep_the_whole_name(line, name):
    command = parse_command(line)
    assert command.name == name
    assert command.persona == "Isabella Rodriguez"


def test_memory_kinds():
    for kind in ("event", "thought", "chat"):
        c = parse_command(f"print persona associative memory ({kind}) Maria Lopez")
        assert (c.name, c.kind, c.persona) == ("print_memory", kind, "Maria Lopez")


def test_tiles_and_calls():
    assert parse_command("print tile event 72, 14").tile == (72, 14)
    assert parse_command("print tile details 3,4").tile == (3, 4)
    with pytest.raises(UserError, match="two whole numbers"):
        parse_command("print tile event 72")
    c = parse_command("call -- load history the_ville/agent_history_init_n3.csv")
    assert (c.name, c.path) == ("load_history", "the_ville/agent_history_init_n3.csv")
    c = parse_command("call -- analysis Klaus Mueller")
    assert (c.name, c.persona) == ("interview", "Klaus Mueller")


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "dance",
        "print persona schedule",
        "call -- analysis",
        "call -- load history",
        "print tile details a, b",
    ],
)
def test_bad_lines_give_a_one_line_hint(line):
    with pytest.raises(UserError) as err:
        parse_command(line)
    assert "\n" not in str(err.value)
    assert str(err.value)


def test_resolve_persona():
    known = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
    assert resolve_persona("isabella rodriguez", known) == "Isabella Rodriguez"
    assert resolve_persona("Klaus", known) == "Klaus Mueller"
    with pytest.raises(UserError, match="known: Isabella"):
        resolve_persona("Abigail Chen", known)
