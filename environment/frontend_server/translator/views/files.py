"""Asset files (map, tilesets, sprites) through a view that checks every name, and static files.

Static files are served by this app too (also with DEBUG off): the server is a local tool.
"""

from __future__ import annotations

import re

from django.contrib.staticfiles.views import serve as static_serve
from django.http import FileResponse, Http404

from translator.sources import paths

PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\- ]{0,120}")
TYPES = {".png": "image/png", ".json": "application/json"}


def asset(request, relpath: str):
    parts = relpath.split("/")
    if not parts or any(not PART.fullmatch(p) or ".." in p for p in parts):
        raise Http404("bad asset name")
    root = paths().assets.resolve()
    path = root.joinpath(*parts)
    ctype = TYPES.get(path.suffix.lower())
    if ctype is None:
        raise Http404("not an asset type")
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise Http404("no such asset") from None
    if not resolved.is_relative_to(root) or not resolved.is_file():
        raise Http404("no such asset")
    response = FileResponse(resolved.open("rb"), content_type=ctype)
    response["Cache-Control"] = "max-age=3600"
    return response


def static(request, path: str):
    return static_serve(request, path, insecure=True)
