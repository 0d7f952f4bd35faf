"""Small inline SVG charts (no JavaScript, no CDN): horizontal bars per prompt, columns over time."""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe

COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f")


def _fmt(v: float) -> str:
    if v >= 1_000_000:
        return f"{v / 1_000_000:.1f}M"
    if v >= 10_000:
        return f"{v / 1000:.0f}k"
    if v == int(v):
        return str(int(v))
    return f"{v:.2f}"


def _legend(series: list[str], x: int, y: int) -> list[str]:
    out = []
    for i, name in enumerate(series):
        out.append(
            f'<rect x="{x}" y="{y + i * 16}" width="10" height="10" fill="{COLORS[i % len(COLORS)]}"/>'
            f'<text x="{x + 14}" y="{y + i * 16 + 9}" font-size="11">{escape(name)}</text>'
        )
    return out


def hbars(title: str, rows: list[tuple[str, list[float]]], series: list[str], width: int = 560) -> SafeString:
    """Stacked horizontal bars, one row per label."""
    label_w, bar_h, top = 190, 16, 24
    plot_w = width - label_w - 60
    height = top + len(rows) * (bar_h + 4) + 8 + (16 * len(series) if len(series) > 1 else 0)
    peak = max((sum(v) for _, v in rows), default=0) or 1
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="0" y="14" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for i, (label, values) in enumerate(rows):
        y = top + i * (bar_h + 4)
        short = label if len(label) <= 28 else label[:27] + "…"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 12}" font-size="11" text-anchor="end">'
            f"<title>{escape(label)}</title>{escape(short)}</text>"
        )
        x = label_w
        for j, v in enumerate(values):
            w = plot_w * v / peak
            if w > 0:
                parts.append(
                    f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" '
                    f'fill="{COLORS[j % len(COLORS)]}"><title>{escape(series[j])}: {_fmt(v)}</title></rect>'
                )
            x += w
        parts.append(f'<text x="{x + 4:.1f}" y="{y + 12}" font-size="11">{_fmt(sum(values))}</text>')
    if len(series) > 1:
        parts += _legend(series, label_w, top + len(rows) * (bar_h + 4) + 4)
    parts.append("</svg>")
    return mark_safe("".join(parts))


def columns(
    title: str,
    bins: list[tuple[str, list[float]]],
    series: list[str],
    width: int = 760,
    height: int = 220,
    *,
    side_by_side: bool = False,
    peak: float | None = None,
) -> SafeString:
    """Columns over time (x = bins in order): a bin's series stacked (parts of one whole), or
    ``side_by_side`` (separate measures, such as shares, which must not add up). ``peak``: the
    top of the scale (e.g. 1 for shares); by default the tallest column."""
    left, top, bottom = 48, 24, 56
    plot_w, plot_h = width - left - 10, height - top - bottom
    tallest = max(((max(v, default=0) if side_by_side else sum(v)) for _, v in bins), default=0)
    peak = peak or tallest or 1
    n = max(len(bins), 1)
    step = plot_w / n
    bar_w = max(step * 0.8, 1)
    part_w = bar_w / max(len(series), 1) if side_by_side else bar_w
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{width}" height="{height + 16 * len(series)}" '
        f'viewBox="0 0 {width} {height + 16 * len(series)}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="0" y="14" font-size="13" font-weight="bold">{escape(title)}</text>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 10}" y2="{top + plot_h}" stroke="#888"/>',
        f'<text x="{left - 4}" y="{top + 8}" font-size="10" text-anchor="end">{_fmt(peak)}</text>',
        f'<text x="{left - 4}" y="{top + plot_h}" font-size="10" text-anchor="end">0</text>',
    ]
    label_every = max(1, n // 8)
    for i, (label, values) in enumerate(bins):
        x = left + i * step + (step - bar_w) / 2
        y = top + plot_h
        for j, v in enumerate(values):
            h = plot_h * v / peak
            if h > 0:
                y = top + plot_h - h if side_by_side else y - h
                x_j = x + j * part_w if side_by_side else x
                parts.append(
                    f'<rect x="{x_j:.1f}" y="{y:.1f}" width="{part_w:.1f}" height="{h:.1f}" '
                    f'fill="{COLORS[j % len(COLORS)]}"><title>{escape(label)} — {escape(series[j])}: '
                    f"{_fmt(v)}</title></rect>"
                )
        if i % label_every == 0:
            parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 14}" font-size="10">{escape(label)}</text>')
    parts += _legend(series, left, height - 8)
    parts.append("</svg>")
    return mark_safe("".join(parts))


def graph(title: str, names: list[str], edges: list[tuple[str, str]], size: int = 520) -> SafeString:
    """Who knows whom: the names on a circle, a line for every pair who know each other."""
    import math

    n = max(len(names), 1)
    cx = cy = size / 2
    r = size / 2 - 90
    pos = {
        name: (
            cx + r * math.cos(2 * math.pi * i / n - math.pi / 2),
            cy + 14 + r * math.sin(2 * math.pi * i / n - math.pi / 2),
        )
        for i, name in enumerate(names)
    }
    parts = [
        f'<svg class="chart graph" role="img" aria-label="{escape(title)}" width="{size}" height="{size + 14}" '
        f'viewBox="0 0 {size} {size + 14}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="0" y="14" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for a, b in edges:
        if a in pos and b in pos:
            (x1, y1), (x2, y2) = pos[a], pos[b]
            parts.append(
                f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'stroke="{COLORS[0]}" stroke-opacity="0.5"><title>{escape(a)} — {escape(b)}</title></line>'
            )
    for name, (x, y) in pos.items():
        anchor = "start" if x > cx + 1 else "end" if x < cx - 1 else "middle"
        dx = 7 if anchor == "start" else -7 if anchor == "end" else 0
        dy = 4 if anchor != "middle" else (-8 if y < cy else 16)
        parts.append(
            f'<circle class="node" cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{COLORS[1]}"/>'
            f'<text x="{x + dx:.1f}" y="{y + dy:.1f}" font-size="10" text-anchor="{anchor}">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
