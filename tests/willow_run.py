"""A storage folder that links the shipped Willow Creek base (never copied) and a config for it."""

from __future__ import annotations

from pathlib import Path

from reverie import PROJECT_ROOT

BASE = "base_willow_creek"
SHIPPED = PROJECT_ROOT / "environment" / "frontend_server" / "storage" / BASE


def willow_config(root: Path, extra: str = "") -> Path:
    """``root/storage`` with the base linked in, and ``root/config.toml`` (plus ``extra`` TOML) using it."""
    storage = root / "storage"
    storage.mkdir()
    (storage / BASE).symlink_to(SHIPPED, target_is_directory=True)
    config = root / "config.toml"
    config.write_text(f'[paths]\nstorage = "{storage}"\ntemp_storage = "{root / "temp"}"\n'
                      f'compressed_storage = "{root / "compressed"}"\n{extra}', encoding="utf-8")
    return config
