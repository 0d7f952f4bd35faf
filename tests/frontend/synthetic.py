"""A small synthetic run for the frontend tests: 3 personas walking on a map.

Built in a temporary folder (never inside the repository): storage with one simulation
(meta.json, environment/ and movement/ files, persona folders from a base simulation,
a timeline and an LLM ledger), and a config.toml pointing at it. The map is the original
"the_ville" (read from the Smallville data beside the clone) or our default world.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from reverie import PROJECT_ROOT

FRONTEND = PROJECT_ROOT / "environment" / "frontend_server"
SIM = "synthetic_three"
BASE = "base_the_ville_isabella_maria_klaus"
START = {"Isabella Rodriguez": [72, 14], "Maria Lopez": [123, 57], "Klaus Mueller": [127, 46]}
STEPS = 40
SCHEDULE = [
    ["sleeping", 360],
    ["waking up and completing her morning routine", 60],
    ["opening Hobbs Cafe", 60],
    ["serving customers at the cafe", 420],
    ["going to bed", 540],
]


def copy_writable(src: Path, dst: Path) -> None:
    """Copy a folder of the (read-only) reference data so that the copy can be written to."""
    shutil.copytree(src, dst, copy_function=shutil.copyfile)
    for folder in [dst, *(p for p in dst.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)


def _dump(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def tile_at(name: str, step: int, start: dict | None = None) -> list[int]:
    """The 1st persona walks right and back, the 3rd walks up; the 2nd stays (only her action changes)."""
    start = start or START
    x, y = start[name]
    role = list(start).index(name)
    if role == 0:
        return [x + (step % 20 if step % 40 < 20 else 20 - step % 20), y]
    if role == 2:
        return [x, y - min(step, 10) if y > 10 else y + min(step, 10)]
    return [x, y]


def movement(step: int, start: dict | None = None) -> dict:
    start = start or START
    first, second, third = list(start)
    persona = {}
    for name in start:
        chat = None
        desc = "walking @ the Ville:Johnson Park:park:park garden"
        emoji = "\U0001f6b6"
        if name == second:
            desc = (
                f"studying @ the Ville:Dorm for Oak Hill College:{second}'s room:desk"
                if step >= 5
                else f"sleeping @ the Ville:Dorm for Oak Hill College:{second}'s room:bed"
            )
            emoji = "\U0001f4da" if step >= 5 else "\U0001f634"
        if name == third and 12 <= step < 16:
            chat = [[third, "Good morning!"], [second, f"Morning, {third.split()[0]}."]]
            desc = f"chatting with {second} @ the Ville:Johnson Park:park:park garden"
            emoji = "\U0001f4ac"
        persona[name] = {
            "movement": tile_at(name, step, start),
            "pronunciatio": emoji,
            "description": desc,
            "chat": chat,
        }
    secs = (step + 1) * 10
    return {
        "persona": persona,
        "meta": {"curr_time": f"February 13, 2023, {secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}"},
    }


def ledger_lines() -> list[dict]:
    lines = []
    for step in range(0, STEPS, 2):
        secs = step * 10
        lines.append(
            {
                "prompt": "wake_up_hour" if step < 10 else "action_location",
                "role": "cheap",
                "persona": "Isabella Rodriguez",
                "step": step,
                "game_time": f"February 13, 2023, {secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}",
                "attempts": 2 if step % 6 == 0 else 1,
                "errors": [],
                "prompt_tokens": 300 + step,
                "completion_tokens": 20,
                "latency_s": 0.5,
                "fallback": step == 8,
                "ts": 1700000000 + step,
                "trimmed_tokens": 150 if step in (12, 14) else 0,
            }
        )
    return lines


def default_world_start() -> dict:
    """Start tiles of our default world's base simulation (willow_creek)."""
    env = json.loads((FRONTEND / "storage" / "base_willow_creek" / "environment" / "0.json").read_text())
    return {name: [rec["x"], rec["y"]] for name, rec in env.items()}


def build(root: Path, smallville: Path, *, steps: int = STEPS, default_world: bool = False) -> Path:
    """Create storage/compressed/temp folders and config.toml under `root`; return the config path.

    default_world: use our willow_creek world and its base personas instead of the_ville.
    """
    storage = root / "storage"
    sim = storage / SIM
    if default_world:
        start, maze = default_world_start(), "willow_creek"
        assets = FRONTEND / "static_dirs" / "assets"
        copy_writable(FRONTEND / "storage" / "base_willow_creek" / "personas", sim / "personas")
    else:
        start, maze = START, "the_ville"
        assets = smallville / "static_dirs" / "assets"
        copy_writable(smallville / "storage" / BASE / "personas", sim / "personas")
    first = next(iter(start))
    scratch_path = sim / "personas" / first / "bootstrap_memory" / "scratch.json"
    scratch = json.loads(scratch_path.read_text(encoding="utf-8"))
    scratch["f_daily_schedule"] = SCHEDULE
    scratch["daily_req"] = ["open the cafe at 8am", "prepare the Valentine's Day party"]
    scratch_path.write_text(json.dumps(scratch, indent=2), encoding="utf-8")
    _dump(
        sim / "reverie" / "meta.json",
        {
            "fork_sim_code": BASE,
            "start_date": "February 13, 2023",
            "curr_time": "February 13, 2023, 00:06:40",
            "sec_per_step": 10,
            "maze_name": maze,
            "persona_names": list(start),
            "step": steps,
        },
    )
    for step in range(steps):
        _dump(sim / "movement" / f"{step}.json", movement(step, start))
        pos = {n: tile_at(n, step - 1, start) if step else start[n] for n in start}
        _dump(sim / "environment" / f"{step}.json", {n: {"maze": maze, "x": p[0], "y": p[1]} for n, p in pos.items()})
    (sim / "timeline.md").write_text(
        "# Timeline of synthetic_three\n\n## Monday February 13, 2023\n\n"
        "- 00:00:00 (step 0) **Isabella Rodriguez** \U0001f6b6: walking @ park\n"
        "\n  Conversation at 00:02:00 (step 12):\n\n  > **Klaus Mueller**: Good morning!\n"
        "  > **Maria Lopez**: Morning, Klaus.\n\n<script>alert(1)</script>\n",
        encoding="utf-8",
    )
    with (sim / "reverie" / "llm_calls.jsonl").open("w", encoding="utf-8") as fh:
        for line in ledger_lines():
            fh.write(json.dumps(line) + "\n")
        fh.write("not json\n")
    _dump(
        sim / "reverie" / "chat_templates.json",
        {
            "strong": {
                "chat_format": "mistral-instruct",
                "family": "mistral-instruct",
                "system": "folded",
                "reason": "",
            },
            "cheap": {"chat_format": "chat_template.default", "family": "chatml", "system": "kept", "reason": ""},
        },
    )
    for name in ("compressed_storage", "temp_storage"):
        (root / name).mkdir()
    config = root / "config.toml"
    config.write_text(
        "[paths]\n"
        f'assets = "{assets.as_posix()}"\n'
        f'storage = "{storage.as_posix()}"\n'
        f'compressed_storage = "{(root / "compressed_storage").as_posix()}"\n'
        f'temp_storage = "{(root / "temp_storage").as_posix()}"\n'
        f'prompts = "{(PROJECT_ROOT / "prompts").as_posix()}"\n'
        "[simulation]\nschedule_passes = 1\n",  # one planning pass keeps the live run short
        encoding="utf-8",
    )
    return config


def announce(root: Path, step: int) -> None:
    """What a running simulation server writes into temp_storage for the live page."""
    _dump(root / "temp_storage" / "curr_sim_code.json", {"sim_code": SIM})
    _dump(root / "temp_storage" / "curr_step.json", {"step": step})
