"""A small Markdown renderer for timeline.md: headings, lists, paragraphs, code, emphasis.

Everything is HTML-escaped first, so the file cannot inject markup.
"""

from __future__ import annotations

import re
from html import escape

from django.utils.safestring import SafeString, mark_safe

HEADING = re.compile(r"(#{1,6})\s+(.*)")
BULLET = re.compile(r"\s*[-*+]\s+(.*)")
NUMBERED = re.compile(r"\s*\d+[.)]\s+(.*)")
QUOTE = re.compile(r"\s*>\s?(.*)")
INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w_])_([^_\n]+)_(?![\w_])"), r"<em>\1</em>"),
]


def _inline(text: str) -> str:
    out = escape(text, quote=False)
    for pattern, repl in INLINE:
        out = pattern.sub(repl, out)
    return out


def render(source: str) -> SafeString:
    html: list[str] = []
    para: list[str] = []
    list_tag: str | None = None
    in_code = False

    def close_para():
        if para:
            html.append("<p>" + " ".join(para) + "</p>")
            para.clear()

    def close_list():
        nonlocal list_tag
        if list_tag:
            html.append(f"</{list_tag}>")
            list_tag = None

    for line in source.splitlines():
        if line.strip().startswith("```"):
            close_para()
            close_list()
            html.append("</code></pre>" if in_code else "<pre><code>")
            in_code = not in_code
            continue
        if in_code:
            html.append(escape(line) + "\n")
            continue
        if not line.strip():
            close_para()
            close_list()
            continue
        if m := HEADING.fullmatch(line.strip()):
            close_para()
            close_list()
            level = min(len(m.group(1)) + 1, 6)
            html.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
        elif re.fullmatch(r"\s*(-{3,}|\*{3,})\s*", line):
            close_para()
            close_list()
            html.append("<hr>")
        elif q := QUOTE.fullmatch(line):
            close_para()
            close_list()
            if html and html[-1].endswith("</blockquote>"):
                html[-1] = html[-1][: -len("</blockquote>")] + "<br>" + _inline(q.group(1)) + "</blockquote>"
            else:
                html.append("<blockquote>" + _inline(q.group(1)) + "</blockquote>")
        elif (m := BULLET.fullmatch(line)) or (n := NUMBERED.fullmatch(line)):
            close_para()
            tag = "ul" if m else "ol"
            if list_tag != tag:
                close_list()
                html.append(f"<{tag}>")
                list_tag = tag
            html.append(f"<li>{_inline((m or n).group(1))}</li>")
        else:
            close_list()
            para.append(_inline(line.strip()))
    close_para()
    close_list()
    if in_code:
        html.append("</code></pre>")
    return mark_safe("".join(html))
