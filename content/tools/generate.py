#!/usr/bin/env python3
"""Generate the demo images (SVG) and documents (PDF, one XLS) of the content folder.

The JSON files are the source of truth. This script reads them, finds every
image path (`/media/...`) and every document file (`/files/...`) they refer
to, and writes the matching file under `content/media/` or `content/files/`.
It then writes the real byte size of each library document into the `size`
field of `documents/library.json`.

Standard library only (Python 3.11). Idempotent: the output depends only on
the JSON content, and a file is rewritten only when its bytes change.

    python3 content/tools/generate.py            # write everything
    python3 content/tools/generate.py --check    # exit 1 if anything is missing or stale
"""
from __future__ import annotations

import colorsys
import hashlib
import html
import json
import re
import struct
import sys
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

CONTENT = Path(__file__).resolve().parent.parent
MEDIA_RE = re.compile(r"/media/[A-Za-z0-9_./-]+\.svg")
CHECK_ONLY = "--check" in sys.argv
changed: list[str] = []


def write_if_changed(path: Path, data: bytes) -> None:
    if path.exists() and path.read_bytes() == data:
        return
    changed.append(str(path.relative_to(CONTENT)))
    if CHECK_ONLY:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def load(rel: str):
    with open(CONTENT / rel, encoding="utf-8") as f:
        return json.load(f)


def json_files():
    for p in sorted(CONTENT.glob("*/*.json")):
        if p.parent.name == "tools":
            continue
        yield p


def strip_html(s: str) -> str:
    s = re.sub(r"<br\s*/?>", " ", s or "")
    s = re.sub(r"</(p|li|h3)>", "\n", s)
    s = re.sub(r"<[^>]+>", "", s)
    return html.unescape(s).replace("\xa0", " ").strip()


# ---------------------------------------------------------------------------
# Collect image references with a caption (the nearest title/name/label)
# ---------------------------------------------------------------------------

CAPTION_KEYS = ("title", "name", "label")


def collect_media(node, caption: str, out: dict, outer: str = "") -> None:
    """out: path -> (caption, outer captions). Outer captions help choose the drawing (e.g. the product of a feature)."""
    if isinstance(node, dict):
        cap = caption
        # a tab wrapper {title, content} keeps the caption of its congress/training
        if set(node) != {"title", "content"}:
            for k in CAPTION_KEYS:
                v = node.get(k)
                if isinstance(v, str) and v.strip():
                    cap = strip_html(v)
                    break
        chain = f"{outer} {caption}" if cap != caption else outer
        for v in node.values():
            collect_media(v, cap, out, chain)
    elif isinstance(node, list):
        for v in node:
            collect_media(v, caption, out, outer)
    elif isinstance(node, str):
        for m in MEDIA_RE.findall(node):
            out.setdefault(m, (caption, outer))


# ---------------------------------------------------------------------------
# SVG drawing
# ---------------------------------------------------------------------------

def hexcol(h: float, s: float, l: float) -> str:
    r, g, b = colorsys.hls_to_rgb((h % 360) / 360.0, l, s)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def seed_of(path: str) -> int:
    nums = re.findall(r"\d+", path)
    base = sum(int(n) * (i + 1) * 37 for i, n in enumerate(nums))
    return base + int(hashlib.md5(path.encode()).hexdigest()[:6], 16)


THEMES = [
    ("shoulder", r"shoulder|humeral|glenoid|glenosphere|arcadia|solace|baseplate|keel-lock|planview|conversion tray"),
    ("knee", r"knee|tibial (tray|baseplate|insert|stem)|femoral component|patella|veritas|halyard|insert|cone"),
    ("hip", r"hip|acetabular|corvid|tessel|bastion|dual mobility|femoral head|liner|shell|centraliser|proximal body|distal body|mobile polyethylene"),
    ("spine", r"spine|cervical|pedicle|tlif|stratum|keystone|cage|set screw|rod\b"),
    ("trauma", r"trauma|plate|nail|fixator|fracture|radius|interlocking|half pin|clamp|end cap|locking screw"),
    ("sports", r"sports|anchor|suture|menisc|arthroscop|shaver|tendrel|anchorline|brightline"),
]


def theme_for(caption: str) -> str:
    c = caption.lower()
    for name, rx in THEMES:
        if re.search(rx, c):
            return name
    return "abstract"


def implant(theme: str) -> str:
    m, p, d = 'fill="url(#m)"', 'fill="#f4f1ea"', 'fill="#00000033"'
    if theme == "shoulder":
        return (f'<path d="M118 128 L182 128 L162 292 Q150 302 138 292 Z" {m}/>'
                f'<path d="M84 132 A76 76 0 0 1 216 132 Z" {m} stroke="#ffffff66" stroke-width="3"/>'
                f'<rect x="132" y="128" width="36" height="14" {d}/>')
    if theme == "knee":
        return (f'<path d="M78 60 Q74 196 150 206 Q226 196 222 60 L194 60 Q196 172 150 178 Q104 172 106 60 Z" {m}/>'
                f'<rect x="70" y="222" width="160" height="22" rx="6" {p}/>'
                f'<rect x="76" y="244" width="148" height="12" rx="4" {m}/>'
                f'<path d="M138 256 L162 256 L156 300 L144 300 Z" {m}/>')
    if theme == "hip":
        return (f'<path d="M128 300 L142 156 Q148 118 184 98 L198 114 Q168 134 164 166 L152 300 Z" {m}/>'
                f'<circle cx="206" cy="94" r="30" {m}/>'
                f'<path d="M158 72 A58 58 0 0 1 268 60" fill="none" stroke="#f4f1ea" stroke-width="14" stroke-linecap="round"/>')
    if theme == "spine":
        out = ""
        for i, y in enumerate((60, 140, 220)):
            out += f'<rect x="96" y="{y}" width="108" height="62" rx="18" {p}/>'
            if i < 2:
                out += f'<rect x="106" y="{y + 64}" width="88" height="14" rx="6" fill="#9ad0f5"/>'
        out += f'<path d="M200 140 L268 150 L268 160 L200 170 Z" {m}/><rect x="186" y="138" width="18" height="34" rx="4" {m}/>'
        return out
    if theme == "trauma":
        holes = "".join(f'<circle cx="150" cy="{y}" r="8" fill="#1b2a3a"/>' for y in range(70, 300, 38))
        return (f'<rect x="124" y="40" width="52" height="270" rx="26" {m}/>'
                f'<rect x="98" y="40" width="104" height="60" rx="28" {m}/>{holes}')
    if theme == "sports":
        threads = "".join(f'<path d="M124 {y} L176 {y + 8}" stroke="#1b2a3a" stroke-width="4"/>' for y in range(110, 230, 22))
        return (f'<path d="M124 96 L176 96 L176 220 L150 262 L124 220 Z" {m}/>{threads}'
                f'<path d="M150 96 Q110 40 170 30 Q240 24 250 80" fill="none" stroke="#f4f1ea" stroke-width="6"/>')
    return ""


def scene(kind: str) -> str:
    """Simple non-implant pictures in a 300x300 box."""
    if kind == "venue":
        pat = ('<defs><pattern id="w" width="24" height="30" patternUnits="userSpaceOnUse">'
               '<rect x="6" y="8" width="12" height="10" fill="#fff9"/></pattern></defs>')
        out = pat
        for i, (x, h) in enumerate(((30, 150), (90, 210), (150, 120), (210, 180))):
            out += (f'<rect x="{x}" y="{300 - h}" width="56" height="{h}" fill="#ffffff{"33" if i % 2 else "55"}"/>'
                    f'<rect x="{x + 4}" y="{310 - h}" width="48" height="{h - 20}" fill="url(#w)"/>')
        return out
    if kind == "hotel":
        pat = ('<defs><pattern id="h" width="34" height="34" patternUnits="userSpaceOnUse">'
               '<rect x="8" y="8" width="18" height="16" fill="#ffe9a8"/></pattern></defs>')
        return (f'{pat}<path d="M70 92 L150 40 L230 92 Z" fill="#ffffff55"/><rect x="80" y="92" width="140" height="208" fill="#ffffff40"/>'
                '<rect x="82" y="102" width="136" height="150" fill="url(#h)"/><rect x="136" y="262" width="28" height="38" fill="#1b2a3a"/>')
    if kind == "person":
        return '<circle cx="150" cy="118" r="56" fill="#ffffff66"/><path d="M52 300 Q60 190 150 188 Q240 190 248 300 Z" fill="#ffffff55"/>'
    if kind == "video":
        return '<circle cx="150" cy="150" r="70" fill="#00000055" stroke="#fff" stroke-width="6"/><path d="M128 112 L190 150 L128 188 Z" fill="#fff"/>'
    if kind == "link":
        return ('<circle cx="150" cy="150" r="90" fill="none" stroke="#fff" stroke-width="8"/>'
                '<ellipse cx="150" cy="150" rx="40" ry="90" fill="none" stroke="#fff" stroke-width="6"/>'
                '<path d="M60 150 H240 M74 100 H226 M74 200 H226" stroke="#fff" stroke-width="6"/>')
    if kind == "lecture":
        return ('<rect x="50" y="40" width="200" height="130" rx="8" fill="#ffffff55"/>'
                '<path d="M70 140 L110 100 L140 124 L180 80 L230 120" fill="none" stroke="#fff" stroke-width="6"/>'
                '<rect x="120" y="200" width="60" height="100" fill="#ffffff66"/><circle cx="150" cy="186" r="18" fill="#ffffff88"/>')
    if kind == "food":
        return ('<circle cx="150" cy="170" r="96" fill="#ffffff55"/><circle cx="150" cy="170" r="66" fill="#ffffff88"/>'
                '<rect x="28" y="90" width="10" height="160" rx="5" fill="#fff"/><rect x="262" y="90" width="10" height="160" rx="5" fill="#fff"/>')
    if kind == "phone":
        return ('<rect x="92" y="20" width="116" height="220" rx="18" fill="#1b2a3a" stroke="#fff" stroke-width="5"/>'
                '<rect x="104" y="44" width="92" height="56" rx="6" fill="#ffffff88"/><rect x="104" y="110" width="92" height="14" rx="4" fill="#ffffff55"/>'
                '<rect x="104" y="132" width="70" height="14" rx="4" fill="#ffffff55"/><rect x="104" y="176" width="92" height="40" rx="6" fill="#e94e4e"/>')
    if kind == "docs":
        return ('<rect x="70" y="60" width="130" height="170" rx="8" fill="#ffffff66" transform="rotate(-8 135 145)"/>'
                '<rect x="100" y="70" width="130" height="170" rx="8" fill="#fff"/>'
                '<path d="M118 104 H212 M118 128 H212 M118 152 H190 M118 176 H204" stroke="#9aa7b4" stroke-width="8"/>'
                '<rect x="118" y="196" width="44" height="22" rx="4" fill="#e94e4e"/>')
    if kind == "calendar":
        cells = "".join(f'<rect x="{x}" y="{y}" width="30" height="24" rx="3" fill="{"#e94e4e" if (x, y) == (152, 156) else "#ffffff99"}"/>'
                        for x in range(68, 232, 42) for y in range(118, 220, 38))
        return f'<rect x="56" y="60" width="188" height="178" rx="12" fill="#ffffff44"/><rect x="56" y="60" width="188" height="40" rx="12" fill="#fff"/>{cells}'
    # abstract: concentric arcs
    return ('<circle cx="150" cy="150" r="110" fill="none" stroke="#ffffff55" stroke-width="18"/>'
            '<circle cx="150" cy="150" r="70" fill="none" stroke="#ffffff88" stroke-width="12"/>'
            '<circle cx="150" cy="150" r="30" fill="#ffffffaa"/>')


SECTION_LABELS = {"info": "Overview", "details": "Design", "hotel": "Instruments", "day": "Surgical steps",
                  "activities": "Clinical evidence", "download": "Resources", "contacts": "Contacts", "faq": "FAQ", "training": "Training"}


# Congresses of type 'event': their cards say EVENT, as the app's badge does.
EVENT_CONGRESSES: set[int] = set()


def kind_label(path: str) -> str:
    name = path.rsplit("/", 1)[1][:-4]
    folder = path.split("/")[2]
    tokens = name.split("-")
    if folder == "congresses" and len(tokens) == 3 and tokens[0] == "congress" and tokens[1].isdigit() \
            and tokens[2] in ("preview", "image") and int(tokens[1]) in EVENT_CONGRESSES:
        return "Event"
    if folder == "indepth":
        return SECTION_LABELS.get(tokens[2], "") if len(tokens) > 2 else ""
    for t in tokens:
        if t in ("venue", "booth", "hotel", "lunch", "dinner", "intro", "poster", "banner", "photo"):
            return {"venue": "Venue", "booth": "Meridian booth", "hotel": "Hotel", "lunch": "Lunch", "dinner": "Dinner",
                    "intro": "Intro video", "poster": "Video", "banner": "", "photo": "Photo"}[t]
        if t == "message":
            return "Key message"
        if t == "key":
            return "Testimonial"
        if t == "video":
            return "Video"
        if re.fullmatch(r"day\d+", t):
            return "Day " + t[3:]
    return {"products": "", "components": "Component", "news": "News", "congresses": "Congress", "activities": "Activity",
            "training": "Sales training", "courses": "Medical education", "segments": "", "categories": "",
            "multimedia": "", "useful": "Useful link", "notifications": "", "updates": "", "people": "", "onboarding": ""}.get(folder, "")


def wrap(text: str, width: int, max_lines: int) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if len(cur) + len(w) + (1 if cur else 0) <= width:
            cur = f"{cur} {w}".strip()
        else:
            if cur:
                lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: max(0, width - 1)].rstrip() + "…"
    return lines


def initials(name: str) -> str:
    parts = [p for p in re.sub(r"^(Dr\.|Prof\.)\s+", "", name).split() if p[0].isupper()]
    return (parts[0][0] + parts[-1][0]) if len(parts) > 1 else name[:2].upper()


def svg_for(path: str, caption: str, outer: str = "") -> str:
    folder = path.split("/")[2]
    name = path.rsplit("/", 1)[1]
    s = seed_of(path)
    hue = s % 360
    portrait = folder == "onboarding" or (folder == "updates" and "preview" not in name)
    square = folder in ("people", "segments", "categories", "useful") or name.endswith("-thumb.svg") or "preview" in name
    W, H = (360, 640) if portrait else (400, 400) if square else (800, 500)
    if folder == "segments" and name.startswith("icon-"):
        W = H = 120
    c1, c2 = hexcol(hue, 0.55, 0.40), hexcol(hue + 35, 0.60, 0.20)
    cap = xml_escape(caption)
    label = kind_label(path)
    theme = theme_for(caption + " " + path)
    if theme == "abstract" and folder in ("indepth", "products", "components"):
        theme = theme_for(outer)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="{cap}">',
             '<defs>',
             f'<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{c1}"/><stop offset="1" stop-color="{c2}"/></linearGradient>',
             '<linearGradient id="m" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#8d99a6"/><stop offset=".45" stop-color="#f5f7fa"/><stop offset="1" stop-color="#7b8794"/></linearGradient>',
             '</defs><style>text{font-family:Helvetica,Arial,sans-serif;fill:#fff}.b{font-weight:bold}.s{fill:#ffffffcc;letter-spacing:2px}</style>',
             f'<rect width="{W}" height="{H}" fill="url(#g)"/>']
    # soft decorative circles, placed from the seed
    for i in range(3):
        cx, cy, r = (s >> (i * 5)) % W, (s >> (i * 7 + 3)) % H, 40 + (s >> (i * 3)) % (min(W, H) // 3)
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="#ffffff" opacity="0.{4 + i * 2:02d}"/>')

    if folder == "segments" and name.startswith("icon-"):
        parts.append(f'<g transform="translate(15 12) scale(0.3)">{implant(theme) or scene("abstract")}</g>')
        parts.append("</svg>")
        return "".join(parts)

    if folder == "people":
        parts.append(f'<circle cx="{W / 2}" cy="{H * 0.42:.0f}" r="{W * 0.3:.0f}" fill="#ffffff33" stroke="#fff" stroke-width="4"/>')
        parts.append(f'<text x="{W / 2}" y="{H * 0.42 + W * 0.08:.0f}" font-size="{W // 4}" class="b" text-anchor="middle">{xml_escape(initials(caption))}</text>')
        parts.append(f'<text x="{W / 2}" y="{H - 34}" font-size="{W // 15}" text-anchor="middle">{cap}</text>')
        parts.append("</svg>")
        return "".join(parts)

    if folder in ("congresses", "training") and ("venue" in name or "booth" in name):
        pic = scene("venue")
    elif "hotel" in name and folder in ("congresses", "training"):
        pic = scene("hotel")
    elif "lunch" in name or "dinner" in name:
        pic = scene("food")
    elif "video" in name or "poster" in name or "intro" in name:
        pic = (implant(theme) if theme != "abstract" else scene("lecture")) + scene("video")
    elif folder == "useful":
        pic = scene("link")
    elif folder == "onboarding":
        n = int(re.findall(r"\d+", name)[0])
        pic = [implant("shoulder"), scene("phone"), scene("docs"), scene("calendar")][(n - 1) % 4]
    elif folder == "updates":
        n = int(re.findall(r"\d+", name)[-1]) if "preview" not in name else 0
        pic = [scene("phone"), scene("docs"), scene("calendar"), scene("phone"), implant("knee")][(n - 1) % 5]
    elif folder in ("courses", "training", "activities") or (folder == "congresses" and theme == "abstract"):
        pic = implant(theme) if (theme != "abstract" and s % 3 == 0) else scene("lecture")
    else:
        pic = implant(theme) or scene("abstract")

    # picture position, text block position
    if portrait:
        scale, px, py = 1.0, (W - 300) / 2, 120
        tx, ty, fs, width, anchor = W / 2, 470, 30, 18, "middle"
    elif square:
        scale, px, py = 0.8, (W - 240) / 2, 40
        tx, ty, fs, width, anchor = W / 2, 310, 26, 24, "middle"
    else:
        scale, px, py = 1.2, W - 375 - (s % 20), (H - 360) / 2
        tx, ty, fs, width, anchor = 40, 150, 34, 20, "start"
    rot = (s % 31) - 15 if folder in ("products", "components", "indepth") else 0
    parts.append(f'<g transform="translate({px:.0f} {py:.0f}) scale({scale}) rotate({rot} 150 150)">{pic}</g>')
    lines = wrap(caption, width, 3)
    if label:
        parts.append(f'<text x="{tx}" y="{ty - fs - 6}" font-size="{fs * 0.55:.0f}" class="s" text-anchor="{anchor}">{xml_escape(label.upper())}</text>')
    for i, ln in enumerate(lines):
        parts.append(f'<text x="{tx}" y="{ty + i * fs * 1.2:.0f}" font-size="{fs}" class="b" text-anchor="{anchor}">{xml_escape(ln)}</text>')
    if portrait and folder == "onboarding":
        parts.append(f'<text x="{W / 2}" y="{H - 40}" font-size="16" class="s" text-anchor="middle">MERIDIAN ORTHOPAEDICS</text>')
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------------------
# Minimal PDF writer (Type1 standard fonts, WinAnsiEncoding)
# ---------------------------------------------------------------------------

def pdf_text(s: str) -> bytes:
    s = s.replace("\u2011", "-").replace("\u2212", "-")
    b = s.encode("cp1252", errors="replace")
    return b.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


class Page:
    def __init__(self):
        self.ops: list[bytes] = []
        self.y = 0.0


def layout(title: str, subtitle: str, meta: list[str], blocks: list[tuple[str, str]], footer: str, banner: str | None) -> list[bytes]:
    """blocks: (style, text) with style in h, p, li. Returns content streams, one per page."""
    W, H, L, R = 595, 842, 56, 539
    pages: list[Page] = []

    def new_page() -> Page:
        p = Page()
        p.ops.append(b"0.11 0.25 0.42 rg 0 %d %d 64 re f" % (H - 64, W))
        p.ops.append(b"BT /F2 13 Tf 1 1 1 rg %d %d Td (MERIDIAN ORTHOPAEDICS) Tj ET" % (L, H - 40))
        if banner:
            p.ops.append(b"0.85 0.2 0.2 rg %d %d 150 22 re f" % (R - 150, H - 50))
            p.ops.append(b"BT /F2 9 Tf 1 1 1 rg %d %d Td (%s) Tj ET" % (R - 143, H - 43, pdf_text(banner)))
        p.y = H - 100
        pages.append(p)
        return p

    def text(p: Page, font: bytes, size: float, s: str, x: float = L, color: bytes = b"0.1 0.1 0.1") -> None:
        p.ops.append(b"BT %s %.1f Tf %s rg %.1f %.1f Td (%s) Tj ET" % (font, size, color, x, p.y, pdf_text(s)))

    p = new_page()
    for ln in wrap(title, 52, 3):
        text(p, b"/F2", 19, ln, color=b"0.11 0.25 0.42")
        p.y -= 24
    if subtitle:
        text(p, b"/F3", 12, subtitle, color=b"0.3 0.3 0.3")
        p.y -= 20
    for m in meta:
        text(p, b"/F1", 9, m, color=b"0.35 0.35 0.35")
        p.y -= 13
    p.y -= 6
    p.ops.append(b"0.8 0.8 0.8 RG 0.7 w %d %.1f m %d %.1f l S" % (L, p.y + 6, R, p.y + 6))
    p.y -= 14
    for style, body in blocks:
        size, font, width, indent = {"h": (12.5, b"/F2", 70, 0), "p": (10.5, b"/F1", 92, 0), "li": (10.5, b"/F1", 86, 14)}[style]
        lines = wrap(body, width, 40)
        need = len(lines) * 14 + (10 if style == "h" else 4)
        if p.y - need < 70:
            p = new_page()
        if style == "h":
            p.y -= 6
        for i, ln in enumerate(lines):
            if style == "li" and i == 0:
                text(p, b"/F1", size, "\u2022", x=L + 2)
            text(p, font, size, ln, x=L + indent, color=b"0.11 0.25 0.42" if style == "h" else b"0.1 0.1 0.1")
            p.y -= 14 if style != "h" else 17
        p.y -= 4
    n = len(pages)
    for i, pg in enumerate(pages, 1):
        pg.y = 36
        pg.ops.append(b"0.8 0.8 0.8 RG 0.7 w %d 52 m %d 52 l S" % (L, R))
        text(pg, b"/F1", 8, footer, color=b"0.45 0.45 0.45")
        text(pg, b"/F1", 8, f"Page {i} of {n}", x=R - 48, color=b"0.45 0.45 0.45")
    return [b"\n".join(pg.ops) + b"\n" for pg in pages]


def build_pdf(title: str, streams: list[bytes]) -> bytes:
    objs: list[bytes] = []
    n_pages = len(streams)
    first_page = 6
    kids = b" ".join(b"%d 0 R" % (first_page + 2 * i) for i in range(n_pages))
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n_pages))
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Oblique /Encoding /WinAnsiEncoding >>")
    for i, st in enumerate(streams):
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                    b"/Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents %d 0 R >>" % (first_page + 2 * i + 1))
        objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(st), st))
    objs.append(b"<< /Title (%s) /Author (Meridian Orthopaedics) /Producer (content/tools/generate.py) >>" % pdf_text(title))
    info_num = len(objs)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n" % (len(objs) + 1)
    out += b"0000000000 65535 f \n"
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, info_num, xref)
    return bytes(out)


# ---------------------------------------------------------------------------
# Minimal legacy spreadsheet (.xls: BIFF8 inside an OLE2 compound file), numbers only
# ---------------------------------------------------------------------------

def biff_record(rtype: int, data: bytes) -> bytes:
    return struct.pack("<HH", rtype, len(data)) + data


def build_xls(rows: list[list[float]]) -> bytes:
    BOF = lambda dt: biff_record(0x0809, struct.pack("<HHHHII", 0x0600, dt, 0x0DBB, 0x07CC, 0, 6))
    font = biff_record(0x0031, struct.pack("<HHHHHBBBB", 200, 0, 0x7FFF, 400, 0, 0, 0, 0, 0) + b"\x05\x00Arial")
    xf_style = struct.pack("<HHHBBBBIIH", 0, 0, 0xFFF5, 0x20, 0, 0, 0, 0, 0, 0x20C0)
    xf_cell = struct.pack("<HHHBBBBIIH", 0, 0, 0x0001, 0x20, 0, 0, 0, 0, 0, 0x20C0)
    glob = bytearray(BOF(0x0005))
    glob += biff_record(0x0042, struct.pack("<H", 1200))          # CODEPAGE
    glob += biff_record(0x003D, struct.pack("<HHHHHHHHH", 0, 0, 0x3000, 0x2000, 0x38, 0, 0, 1, 0x258))  # WINDOW1
    for _ in range(4):
        glob += font
    for _ in range(15):
        glob += biff_record(0x00E0, xf_style)
    glob += biff_record(0x00E0, xf_cell)
    glob += biff_record(0x0293, struct.pack("<HBB", 0x8000, 0, 0xFF))  # STYLE (Normal)
    sheet_name = b"Sheet1"
    bs_pos = len(glob)
    glob += biff_record(0x0085, struct.pack("<IBB", 0, 0, 0) + bytes([len(sheet_name), 0]) + sheet_name)
    glob += biff_record(0x000A, b"")
    sheet = bytearray(BOF(0x0010))
    ncols = max(len(r) for r in rows)
    sheet += biff_record(0x0200, struct.pack("<IIHHH", 0, len(rows), 0, ncols, 0))  # DIMENSIONS
    sheet += biff_record(0x023E, struct.pack("<HHHH", 0x06B6, 0, 0, 0x40) + b"\x00" * 10)  # WINDOW2
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            sheet += biff_record(0x0203, struct.pack("<HHHd", r, c, 15, float(v)))  # NUMBER, xf 15
    sheet += biff_record(0x000A, b"")
    # patch BOUNDSHEET offset of the sheet stream
    off = len(glob)
    glob[bs_pos + 4: bs_pos + 8] = struct.pack("<I", off)
    stream = bytes(glob + sheet)
    return compound_file(stream)


def compound_file(workbook: bytes) -> bytes:
    """OLE2 compound file with one 'Workbook' stream (padded to >= 4096 bytes so it uses regular sectors)."""
    SECT = 512
    if len(workbook) < 4096:
        workbook = workbook + b"\x00" * (4096 - len(workbook))
    n_data = (len(workbook) + SECT - 1) // SECT
    data = workbook + b"\x00" * (n_data * SECT - len(workbook))
    dir_sector = n_data
    fat_sector = n_data + 1
    total = n_data + 2
    fat = []
    for i in range(n_data):
        fat.append(i + 1 if i < n_data - 1 else 0xFFFFFFFE)
    fat.append(0xFFFFFFFE)         # directory chain
    fat.append(0xFFFFFFFD)         # FAT sector itself
    fat += [0xFFFFFFFF] * (SECT // 4 - len(fat))

    def dirent(name: str, typ: int, start: int, size: int, child: int = 0xFFFFFFFF) -> bytes:
        raw = name.encode("utf-16-le") + b"\x00\x00"
        return (raw.ljust(64, b"\x00") + struct.pack("<HBBIII", len(raw), typ, 1, 0xFFFFFFFF, 0xFFFFFFFF, child)
                + b"\x00" * 16 + struct.pack("<I", 0) + b"\x00" * 16 + struct.pack("<III", start, size, 0))

    dirs = dirent("Root Entry", 5, 0xFFFFFFFE, 0, child=1) + dirent("Workbook", 2, 0, len(workbook))
    dirs += b"\x00" * (SECT - len(dirs))
    # empty entries must have their sibling/child fields set to NOSTREAM
    empty = bytearray(128)
    struct.pack_into("<III", empty, 68, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
    dirs = dirs[:256] + bytes(empty) * 2
    header = bytearray(SECT)
    header[0:8] = bytes.fromhex("D0CF11E0A1B11AE1")
    struct.pack_into("<HHHHH", header, 24, 0x003E, 0x0003, 0xFFFE, 9, 6)
    # directory sectors (0 in v3), FAT sectors, first directory sector, transaction, mini cutoff,
    # first mini FAT sector, mini FAT sectors, first DIFAT sector, DIFAT sectors
    struct.pack_into("<9I", header, 40, 0, 1, dir_sector, 0, 0x1000, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
    struct.pack_into("<109I", header, 76, fat_sector, *([0xFFFFFFFF] * 108))
    out = bytes(header) + data + dirs + struct.pack("<%dI" % (SECT // 4), *fat)
    assert len(out) == SECT * (total + 1)
    return out


# ---------------------------------------------------------------------------
# Document bodies: text derived from whatever refers to the document
# ---------------------------------------------------------------------------

def doc_references(catalogue, congresses, activities, trainings, courses):
    refs: dict[int, list] = {}

    def add(ids, kind, obj):
        for i in ids or []:
            refs.setdefault(i, []).append((kind, obj))

    segments, products, catalogues = catalogue
    for s in segments:
        add(s.get("thinkclinical"), "segment", s)
    for p in products:
        for a in p.get("attachments") or []:
            add(a.get("files"), "product", p)
    add(catalogues.get("documents"), "catalogue", None)
    for c in congresses:
        add(c["tabs"]["downloads"]["content"]["files"], "congress", c)
    for a in activities:
        add(a.get("files"), "activity", a)
    for t in trainings:
        add(t["tabs"]["downloads"]["content"]["files"], "training", t)
    for c in courses:
        add(c.get("files"), "course", c)
        for d in c.get("days", []):
            add(d.get("files"), "course", c)
    return refs


def body_for(doc: dict, refs: list, ctx: dict) -> list[tuple[str, str]]:
    cat = doc.get("category", "")
    title = doc["title"]
    B: list[tuple[str, str]] = []
    first = refs[0] if refs else (None, None)
    kind, obj = first
    segments, products, categories = ctx["segments"], ctx["products"], ctx["categories"]
    seg_of = {}
    for c in categories:
        seg_of[c["id"]] = c["parent_id"]
    for s in segments:
        seg_of[s["id"]] = s["id"]

    if cat == "catalogue":
        segname = next((s["name"] for s in segments if title.startswith(s["name"] + " ")), None)
        B.append(("p", f"This catalogue lists the implants and instruments of the Meridian Orthopaedics {segname or 'product'} range "
                       "available in 2026. Codes, sizes and availability are in the component pages of the app, which are always up to date."))
        for s in segments:
            if segname and s["name"] != segname:
                continue
            B.append(("h", s["name"]))
            for p in products:
                if seg_of.get(p["parent_id"]) == s["id"]:
                    text = strip_html(p["description"]).split("\n")[0]
                    B.append(("li", text if segname else p["name"]))
        if "Instrument" in title:
            B.append(("h", "Reprocessing"))
            B.append(("p", "Reusable instruments are supplied non-sterile. Clean, inspect and sterilise them according to the instructions for use "
                           "before every procedure. Tray layouts are shown on the lid of each tray."))
    elif cat == "thinkclinical":
        topic = title.replace("#ThinkClinical: ", "")
        B += [("h", "Background"),
              ("p", f"{topic} is a frequent question from surgeons. This digest summarises the published evidence and the data on file "
                    "in a form that can be discussed in a few minutes."),
              ("h", "Summary of the evidence"),
              ("li", "Comparative studies are mostly retrospective; registry data give the largest numbers."),
              ("li", "Differences in outcome scores are small when the indication is respected."),
              ("li", "Complication rates depend more on patient selection and technique than on implant design."),
              ("h", "Practical take-aways"),
              ("p", "Use this digest to open a conversation, not to make claims. Refer detailed clinical questions to the medical affairs team."),
              ("h", "References"),
              ("p", "Illustrative references for demonstration purposes only; the studies cited in this demo document do not exist.")]
    elif cat == "technique":
        fam = title.replace(" Surgical Technique", "")
        B += [("h", "1. Pre-operative planning"),
              ("p", f"Plan the procedure on calibrated radiographs or CT. Templates for the {fam} implants are available from your representative."),
              ("h", "2. Patient positioning and approach"),
              ("p", "Position the patient according to the approach chosen by the surgeon. Check that fluoroscopy can reach the operative field when needed."),
              ("h", "3. Preparation"),
              ("p", "Prepare the bone with the dedicated instruments in the order shown on the tray. Use the trials to confirm size and position."),
              ("h", "4. Implantation"),
              ("p", "Open the final implants only after the trial reduction. Check the labels against the plan before implantation."),
              ("h", "5. Closure and aftercare"),
              ("p", "Close in layers. Rehabilitation follows the protocol of the surgeon.")]
        names = [p["name"] for p in products if p["name"].startswith(fam.split()[0])]
        if names:
            B.append(("h", "Products covered"))
            B += [("li", n) for n in names]
    elif cat == "ifu":
        B += [("h", "Description"), ("p", "Implants of this range are made of the materials listed on the label and supplied sterile unless stated otherwise."),
              ("h", "Indications"), ("p", "See the product pages and the surgical techniques for the indications of each implant."),
              ("h", "Contraindications"), ("li", "Active infection."), ("li", "Insufficient bone stock to support the implant."), ("li", "Known allergy to the implant materials."),
              ("h", "Warnings and precautions"), ("p", "Implants are for single use. Do not resterilise. Do not combine with components of other manufacturers unless stated."),
              ("h", "Sterilisation and storage"), ("p", "Store in the original packaging at room temperature. Do not use after the expiry date or if the packaging is damaged.")]
    elif cat == "brochure" and kind == "product":
        B.append(("p", strip_html(obj["description"]).replace("\n", " ")))
        B.append(("h", "Benefits"))
        B += [("li", b) for b in obj.get("benefits", [])]
    elif kind == "congress" and obj:
        info = obj["tabs"]["info"]["content"]
        if "Floor Plan" in title:
            v = obj["tabs"]["details"]["content"]["congress_venue"]
            B += [("h", "Venue"), ("p", strip_html(v["description"])),
                  ("h", "Where to find us"), ("p", strip_html(obj["tabs"]["details"]["content"]["meridian_booth"]["description"]))]
        elif "Key Messages" in title:
            for m in obj["tabs"]["messages"]["content"]["messages"]:
                B += [("h", m["title"]), ("p", strip_html(m["description"]))]
        else:
            B.append(("p", strip_html(info["description"]).replace("\n", " ")))
            for day in obj["tabs"]["day"]["content"]["events"]:
                B.append(("h", day["date"]))
                B += [("li", f'{e["time"]}  {e["title"]} ({e["subtitle"]})') for e in day["events"]]
    elif kind == "activity" and obj:
        B.append(("p", strip_html(obj["description"]).replace("\n", " ")))
        B.append(("h", "Faculty"))
        B += [("li", f'{e["name"]}, {e["subtitle"]}') for e in obj["experts"]] or [("li", "Meridian team")]
        B.append(("h", "Slides"))
        B.append(("p", "Slides are summarised in this demo document. The complete presentation is available from the speaker on request."))
    elif kind == "training" and obj:
        if "Agenda" in title:
            for day in obj["tabs"]["day"]["content"]["events"]:
                B.append(("h", day["date"]))
                B += [("li", f'{e["time"]}  {e["title"]}') for e in day["events"]]
        else:
            B.append(("p", "Please read the following topics before the training. Each will be discussed in the workshops."))
            B += [("li", strip_html(x)) for x in re.findall(r"<li>(.*?)</li>", obj["tabs"]["details"]["content"]["main_topics"]["description"])]
    elif kind == "course" and obj:
        B.append(("p", strip_html(obj["description"]).replace("\n", " ")))
        if "Reading List" in title:
            B.append(("h", "Suggested reading"))
            B += [("li", f"Review article {i}: topic of {obj['days'][0]['title'].lower()} (illustrative reference).") for i in (1, 2, 3)]
        else:
            for d in obj["days"]:
                B.append(("h", f'{d["date_text"]}, {d["time"]}'))
                B.append(("li", f'{d["title"]} - {", ".join(d["speakers"])}'))
            B.append(("h", "Faculty"))
            B += [("li", f'{s["name"]} ({s["country"]})') for s in obj["speakers"]]
    elif re.search(r"visit report", title, re.I):
        B += [("h", "Attendees"), ("li", "Head of orthopaedics, two consultants, theatre coordinator"), ("li", "Meridian area manager"),
              ("h", "Discussion"),
              ("p", f"{doc.get('subtitle') or 'Meeting'}. The team reviewed current cases, instrument availability and the training plan "
                    "for the next quarter. Questions on implant sizes were answered on site."),
              ("h", "Next steps"), ("li", "Send the surgical technique and the latest instructions for use."),
              ("li", "Book a loan set for the first cases."), ("li", "Propose dates for a hands-on session.")]
    elif re.search(r"pric|reimbursement", title, re.I):
        B += [("p", f"{title}: {doc.get('subtitle') or ''}. Figures are illustrative and for demonstration only."),
              ("h", "Tiers"), ("li", "Tier 1 - list price"), ("li", "Tier 2 - volume agreement, 5% below list"),
              ("li", "Tier 3 - multi-year agreement, 9% below list"),
              ("h", "Rules"), ("p", "Prices must not be shared outside the company. Quotes above tier 3 need approval of the country manager.")]
    elif re.search(r"checklist|template", title, re.I):
        B += [("p", f"{title}. {doc.get('subtitle') or ''}."), ("h", "Checklist")]
        B += [("li", x) for x in ("Confirm the agenda and the attendees", "Check loan-set availability",
                                   "Bring the latest surgical technique", "Update the account plan after the visit",
                                   "File expenses within 30 days")]
    elif re.search(r"plan\b|plan -|review", title, re.I):
        B += [("p", f"{title}. {doc.get('subtitle') or ''}."),
              ("h", "Objectives"), ("li", "Grow shoulder arthroplasty volume"), ("li", "Convert two accounts to the Veritas knee"),
              ("h", "Actions"), ("li", "Quarterly business reviews"), ("li", "Courses for residents"), ("li", "Congress invitations"),
              ("h", "Risks"), ("p", "Tender timing and competitor pricing.")]
    else:
        sub = doc.get("subtitle") or ""
        B += [("p", f"{title}. {sub}."),
              ("h", "Purpose"),
              ("p", "This document is part of the demo content of the companion app. It contains short, readable text so that "
                    "opening, sharing, moving and downloading can be tried with a real file."),
              ("h", "Notes"),
              ("li", "Check the date and revision before sharing with customers."),
              ("li", "Labels such as For internal use, Controlled release and Upon request limit how the document can be shared."),
              ("li", "Questions: contact the owner of the document or app support.")]
    return B


def banner_for(doc: dict) -> str | None:
    if doc.get("for_internal_use"):
        return "FOR INTERNAL USE ONLY"
    if doc.get("controlled_release"):
        return "CONTROLLED RELEASE"
    if doc.get("upon_request"):
        return "UPON REQUEST"
    return None


def pdf_for(doc: dict, refs: list, ctx: dict) -> bytes:
    meta = []
    if doc.get("code_points"):
        meta.append(f"Reference: {doc['code_points']}")
    if doc.get("languages_in_file"):
        meta.append(f"Languages: {doc['languages_in_file']}")
    blocks = body_for(doc, refs, ctx)
    footer = f"{doc.get('code_points') or doc['title'][:40]} - Meridian Orthopaedics is a fictitious company; demo content."
    streams = layout(doc["title"], doc.get("subtitle") or "", meta, blocks, footer, banner_for(doc))
    return build_pdf(doc["title"], streams)


def human_size(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n >= 10240 else f"{n / 1024:.1f} KB"


def seed_files(nodes):
    for n in nodes:
        if n.get("type") == "folder":
            yield from seed_files(n.get("children", []))
        else:
            yield n


def main() -> int:
    # images
    EVENT_CONGRESSES.update(c["id"] for c in load("congresses/congresses.json") if c.get("type") == "event")
    media: dict[str, tuple[str, str]] = {}
    for p in json_files():
        collect_media(load(str(p.relative_to(CONTENT))), "", media)
    for path, (caption, outer) in sorted(media.items()):
        svg = svg_for(path, caption or "Meridian Orthopaedics", outer)
        write_if_changed(CONTENT / path.lstrip("/"), svg.encode("utf-8"))

    # documents
    segments = load("catalogue/segments.json")
    products = load("catalogue/products.json")
    categories = load("catalogue/categories.json")
    catalogues = load("catalogue/catalogues.json")
    congresses = load("congresses/congresses.json")
    activities = load("congresses/activities.json")
    trainings = load("training/trainings.json")
    courses = load("courses/courses.json")
    library = load("documents/library.json")
    ctx = {"segments": segments, "products": products, "categories": categories}
    refs = doc_references((segments, products, catalogues), congresses, activities, trainings, courses)
    for d in library:
        data = pdf_for(d, refs.get(d["id"], []), ctx)
        write_if_changed(CONTENT / d["file"].lstrip("/"), data)
        d["size"] = human_size(len(data))
    lib_bytes = (json.dumps(library, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    write_if_changed(CONTENT / "documents/library.json", lib_bytes)

    seed = load("documents/seed.json")
    nodes = [n for u in seed["users"] for n in u["my"]] + seed["us"]
    for f in seed_files(nodes):
        target = CONTENT / f["file"].lstrip("/")
        if f["file"].endswith(".xls"):
            rows = [[2026, m, 10000 + 731 * m % 9000, 12 + (m * 7) % 30] for m in range(1, 13)]
            write_if_changed(target, build_xls(rows))
        else:
            write_if_changed(target, pdf_for(f, [], ctx))

    # media/ and files/ are fully generated: remove files nothing refers to any more
    wanted = {CONTENT / m.lstrip("/") for m in media}
    wanted |= {CONTENT / d["file"].lstrip("/") for d in library}
    wanted |= {CONTENT / f["file"].lstrip("/") for f in seed_files(nodes)}
    for top in ("media", "files"):
        for p in sorted((CONTENT / top).rglob("*")):
            if p.is_file() and p not in wanted:
                changed.append(f"orphan {p.relative_to(CONTENT)}")
                if not CHECK_ONLY:
                    p.unlink()
        for p in sorted((CONTENT / top).rglob("*"), reverse=True):
            if p.is_dir() and not any(p.iterdir()) and not CHECK_ONLY:
                p.rmdir()

    if CHECK_ONLY:
        for c in changed:
            print("stale or missing:", c)
        return 1 if changed else 0
    print(f"{len(media)} images, {len(library)} library documents; {len(changed)} files written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
