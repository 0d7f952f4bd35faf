"""`python -m reverie assets import PATH [--force]`: bring the original Smallville world in.

PATH is a clone of the original repository or its ``environment/frontend_server/`` folder.
Copies the_ville (matrix, Tiled map, the tileset images it uses, history CSVs), the
character sprites, atlas and portraits, the speech bubbles and the base simulations
(``storage/base_*``) into ``[paths] assets`` and ``[paths] storage``. Files that are
already there with the same bytes are skipped, so a second import does nothing; a file
that is there with other bytes is only replaced with ``--force``. The default world's own
shared files (the atlas and the speech bubble it ships) are always kept.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reverie.errors import UserError
from reverie.world import blocks

if TYPE_CHECKING:
    from reverie.config import Settings

MAZE = "the_ville"
MAP_FILE = "the_ville_jan7.json"
BASE_SIM = "base_the_ville_isabella_maria_klaus"
# Shipped by the default world in the same format; an import keeps ours.
KEEP_OURS = {("assets", "characters/atlas.json"), ("assets", "speech_bubble/v3.png")}
SHOW = 6  # missing or conflicting files named in an error line


@dataclass
class ImportReport:
    copied: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="assets_command", metavar="ACTION", required=True)
    imp = sub.add_parser("import", help="copy the_ville, characters and base simulations from a clone")
    imp.add_argument("path", help="a clone of the original repository, or its environment/frontend_server folder")
    imp.add_argument("--force", action="store_true", help="replace existing files whose content differs")


def main(args: argparse.Namespace, settings: Settings) -> int:
    report = import_original(Path(args.path), settings.paths.assets, settings.paths.storage, force=args.force)
    if not report.copied:
        print(f"nothing to do: all {len(report.unchanged)} files are already imported")
    else:
        print(
            f"imported {len(report.copied)} files ({len(report.unchanged)} already there) into "
            f"{settings.paths.assets} and {settings.paths.storage}"
        )
    if report.kept:
        print(f"kept the default world's own {', '.join(p.name for p in report.kept)}")
    return 0


def frontend_root(path: Path) -> Path:
    """The folder holding static_dirs/ and storage/ (the clone's environment/frontend_server)."""
    for candidate in (path / "environment" / "frontend_server", path):
        if (candidate / "static_dirs").is_dir():
            return candidate
    raise UserError(
        f"{path} is not a clone of the original repository nor its environment/frontend_server "
        "folder: missing static_dirs/ (and storage/)"
    )


def _files(folder: Path, pattern: str = "*") -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file()) if folder.is_dir() else []


def _walk(folder: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        dirnames.sort()
        out += [Path(dirpath) / name for name in sorted(filenames)]
    return out


def plan(root: Path) -> tuple[list[tuple[Path, str, str]], list[str]]:
    """What to copy: (source file, "assets" or "storage", path inside it), and what is missing."""
    assets, storage = root / "static_dirs" / "assets", root / "storage"
    items: list[tuple[Path, str, str]] = []
    missing: list[str] = []

    def need(src: Path, kind: str, rel: str) -> None:
        if src.is_file():
            items.append((src, kind, rel))
        else:
            missing.append(str(src.relative_to(root)))

    matrix = assets / MAZE / "matrix"
    need(matrix / "maze_meta_info.json", "assets", f"{MAZE}/matrix/maze_meta_info.json")
    for layer in blocks.LAYERS:
        need(matrix / "maze" / f"{layer}_maze.csv", "assets", f"{MAZE}/matrix/maze/{layer}_maze.csv")
    for file in blocks.BLOCK_TABLES.values():
        need(matrix / "special_blocks" / file, "assets", f"{MAZE}/matrix/special_blocks/{file}")
    visuals = assets / MAZE / "visuals"
    need(visuals / MAP_FILE, "assets", f"{MAZE}/visuals/{MAP_FILE}")
    if (visuals / MAP_FILE).is_file():
        for image in _tileset_images(visuals / MAP_FILE):
            need(visuals / image, "assets", f"{MAZE}/visuals/{image}")
    for csv in _files(assets / MAZE, "agent_history_init_*.csv"):
        items.append((csv, "assets", f"{MAZE}/{csv.name}"))
    chars = assets / "characters"
    need(chars / "atlas.json", "assets", "characters/atlas.json")
    sheets = _files(chars, "*.png")
    if not sheets:
        missing.append(str((chars / "<First_Last>.png").relative_to(root)))
    for png in sheets + _files(chars / "profile", "*.png"):
        items.append((png, "assets", str(png.relative_to(assets))))
    bubbles = _files(assets / "speech_bubble", "*.png")
    if not bubbles:
        missing.append(str((assets / "speech_bubble" / "v3.png").relative_to(root)))
    items += [(png, "assets", f"speech_bubble/{png.name}") for png in bubbles]
    need(storage / BASE_SIM / "reverie" / "meta.json", "storage", f"{BASE_SIM}/reverie/meta.json")
    sims = sorted(p for p in storage.glob("base_*") if p.is_dir()) if storage.is_dir() else []
    seen = {(kind, rel) for _, kind, rel in items}
    for sim in sims:
        for path in _walk(sim):
            rel = f"{sim.name}/{path.relative_to(sim).as_posix()}"
            if ("storage", rel) not in seen:
                items.append((path, "storage", rel))
    return items, missing


def _tileset_images(map_file: Path) -> list[str]:
    try:
        data = json.loads(map_file.read_text(encoding="utf-8"))
        return [ts["image"] for ts in data["tilesets"] if "image" in ts]
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{map_file} is not a Tiled JSON map ({exc.__class__.__name__}: {exc})") from None


def _same(a: Path, b: Path) -> bool:
    return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}.")
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _describe(paths: list[str]) -> str:
    more = len(paths) - SHOW
    return ", ".join(paths[:SHOW]) + (f" and {more} more" if more > 0 else "")


def import_original(path: Path, assets_dir: Path, storage_dir: Path, *, force: bool = False) -> ImportReport:
    """Validate PATH and copy the original world in. Raises UserError (one line) on a bad path
    or on existing files with other content (unless ``force``)."""
    root = frontend_root(Path(path))
    items, missing = plan(root)
    if missing:
        raise UserError(f"{root} is incomplete: missing {_describe(missing)}")
    from reverie.world.maze import Maze

    Maze.load(root / "static_dirs" / "assets", MAZE)  # the matrix files parse
    targets = {"assets": Path(assets_dir), "storage": Path(storage_dir)}
    report, todo, conflicts = ImportReport(), [], []
    for src, kind, rel in items:
        dst = targets[kind] / rel
        if not dst.exists():
            todo.append((src, dst))
        elif _same(src, dst):
            report.unchanged.append(dst)
        elif (kind, rel) in KEEP_OURS:
            report.kept.append(dst)
        elif force:
            todo.append((src, dst))
        else:
            conflicts.append(str(dst))
    if conflicts:
        raise UserError(
            f"{len(conflicts)} file(s) already exist with other content ({_describe(conflicts)}); "
            "pass --force to replace them"
        )
    for src, dst in todo:
        _copy(src, dst)
        report.copied.append(dst)
    return report
