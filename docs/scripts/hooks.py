"""MkDocs hooks: the generated reference pages, the repository's own READMEs as pages, and links
that work both in the repository and in the site.

- The reference pages (docs/scripts/reference.py) are made from the code at every build.
- README.md and the READMEs of models/, prompts/, tests/ and the web server are pages of the site as they are
  (:data:`INCLUDED`): the text is written once, beside what it documents.
- Search works when the built site is opened from disk: Material's offline plugin needs the
  iframe-worker shim, which comes from npm with the web server's packages (`bash .ci/setup`) and
  is served from the site itself, never from a CDN (without it, search needs `mkdocs serve`).
- Material's script would fetch two more from unpkg.com when a page needs them: the
  ResizeObserver polyfill (a browser without ResizeObserver) and mermaid (a diagram). The
  polyfill comes from npm too and is served from the site; mermaid is not served, as no page
  can hold a diagram (superfences has no mermaid fence). The built script names both by the
  site's own address, so nothing is ever fetched from elsewhere.
- A relative link is written as a path in the repository, from the file that holds it
  (``../models/README.md#model-servers`` in docs/SPEED.md). The site points it at that file's
  page; a link to a repository file that is not a page (a source file, a folder) keeps its text
  and loses the link; a link to nothing at all is left alone, so that ``mkdocs build --strict``
  fails on it.
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path

from mkdocs.structure.files import File

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import reference  # noqa: E402  (beside this file)

# A repository file shown as a page: its path in the repository -> its page in the site.
INCLUDED = {
    "README.md": "index.md",
    "models/README.md": "reference/models.md",
    "prompts/README.md": "reference/prompt-files.md",
    "tests/README.md": "how-to/tests.md",
    "environment/frontend_server/README.md": "reference/pages.md",
}

_LINK = re.compile(r"(!?\[(?P<text>[^\]\n]*)\])\((?P<target>[^)\s]+)(?P<title>\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^(```|~~~)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")

_origin: dict[str, str] = {}

NODE_MODULES = ROOT / "environment" / "frontend_server" / "node_modules"
SHIM = NODE_MODULES / "iframe-worker" / "shim" / "index.js"
SHIM_URI = "assets/javascripts/iframe-worker-shim.js"
POLYFILL = NODE_MODULES / "resize-observer-polyfill" / "dist" / "ResizeObserver.js"
POLYFILL_URI = "assets/javascripts/resize-observer-polyfill.js"
# The CDN addresses in Material's script -> where the site serves them (its base: __md_scope).
LOCAL_COPIES = {
    "https://unpkg.com/resize-observer-polyfill": POLYFILL_URI,
    "https://unpkg.com/mermaid@11/dist/mermaid.min.js": "assets/javascripts/mermaid.min.js",
}


def on_config(config):
    """No script from elsewhere: the offline plugin's CDN shim becomes the site's own copy."""
    polyfills = [p for p in config.extra.get("polyfills", []) if "://" not in str(p)]
    if SHIM.is_file():
        polyfills.append(SHIM_URI)
    config.extra["polyfills"] = polyfills
    return config


def on_files(files, config):
    """Add the generated reference pages and the included READMEs."""
    for src_uri, text in reference.pages().items():
        files.append(File.generated(config, src_uri, content=text))
        _origin[src_uri] = f"docs/{src_uri}"
    for source, uri in ((SHIM, SHIM_URI), (POLYFILL, POLYFILL_URI)):
        if source.is_file():
            files.append(File.generated(config, uri, abs_src_path=str(source)))
    for repo_path, src_uri in INCLUDED.items():
        files.append(File.generated(config, src_uri, content=(ROOT / repo_path).read_text(encoding="utf-8")))
        _origin[src_uri] = repo_path
    return files


def site_target(origin: str, page_uri: str, target: str) -> str | None:
    """Where a link written in the repository file ``origin`` goes from the page ``page_uri``:
    the site-relative link, or None when it names a repository file that is not a page."""
    path, hash_, fragment = target.partition("#")
    if not path:
        return target
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(origin), path))
    if resolved in INCLUDED:
        page = INCLUDED[resolved]
    elif resolved.startswith("docs/"):
        page = resolved.removeprefix("docs/")
    elif (ROOT / resolved).exists():
        return None
    else:
        return target
    return posixpath.relpath(page, posixpath.dirname(page_uri) or ".") + hash_ + fragment


def rewrite_links(markdown: str, origin: str, page_uri: str) -> str:
    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
        if not fenced:

            def fix(match: re.Match) -> str:
                target = match["target"]
                if _SCHEME.match(target) or target.startswith("#"):
                    return match[0]
                new = site_target(origin, page_uri, target)
                if new is None:
                    return match["text"]
                return f"{match[1]}({new}{match['title'] or ''})"

            line = _LINK.sub(fix, line)
        out.append(line)
    return "".join(out)


def on_page_markdown(markdown, page, config, files):
    uri = page.file.src_uri
    return rewrite_links(markdown, _origin.get(uri, f"docs/{uri}"), uri)


def on_post_build(config):
    """Material's script (and its source map) name the site's own copies, not the CDN's."""
    for script in (Path(config.site_dir) / "assets" / "javascripts").glob("bundle.*.js*"):
        text = script.read_text(encoding="utf-8")
        for cdn, uri in LOCAL_COPIES.items():
            local = uri if script.suffix == ".map" else f'new URL("{uri}",__md_scope).href'
            text = text.replace(cdn if script.suffix == ".map" else f'"{cdn}"', local)
        script.write_text(text, encoding="utf-8")
