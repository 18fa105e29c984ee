#!/usr/bin/env python3
"""Validate the content folder: shapes, references, files, HTML, images and PDFs.

    python3 content/tools/validate.py          # exit 0 when everything holds, 1 otherwise

Standard library only (Python 3.11). Every problem is printed as `file: where: what`.
"""
from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

CONTENT = Path(__file__).resolve().parent.parent
MAX_SVG = 3 * 1024
MAX_TOTAL = 3 * 1024 * 1024
ALLOWED_TAGS = {"p", "strong", "em", "ul", "ol", "li", "a", "h3", "br"}
VOID_TAGS = {"br"}
ERRORS: list[str] = []
DATA: dict[str, object] = {}


def err(file: str, where: str, what: str) -> None:
    ERRORS.append(f"{file}: {where}: {what}")


def load(rel: str):
    try:
        with open(CONTENT / rel, encoding="utf-8") as f:
            DATA[rel] = json.load(f)
    except FileNotFoundError:
        err(rel, "-", "file missing")
        DATA[rel] = None
    except json.JSONDecodeError as e:
        err(rel, f"line {e.lineno}", f"invalid JSON: {e.msg}")
        DATA[rel] = None
    return DATA[rel]


# ---------------------------------------------------------------------------
# small shape checker
# ---------------------------------------------------------------------------

def is_date(v) -> bool:
    if not isinstance(v, str):
        return False
    try:
        datetime.date.fromisoformat(v)
        return len(v) == 10
    except ValueError:
        return False


def is_time(v) -> bool:
    return isinstance(v, str) and re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", v) is not None


TYPES = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
    "str": lambda v: isinstance(v, str) and v.strip() != "",
    "str?": lambda v: v is None or isinstance(v, str),
    "text": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
    "dict?": lambda v: v is None or isinstance(v, dict),
    "date": is_date,
    "time": is_time,
    "html": lambda v: isinstance(v, str),
    "media": lambda v: isinstance(v, str) and v.startswith("/media/"),
    "media?": lambda v: v is None or (isinstance(v, str) and v.startswith("/media/")),
    "ids": lambda v: isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in v),
}


def shape(file: str, where: str, obj, spec: dict) -> bool:
    """spec: field -> type name; a trailing '?' on the field name marks it optional."""
    if not isinstance(obj, dict):
        err(file, where, "expected an object")
        return False
    ok = True
    for field, typ in spec.items():
        optional = field.endswith("?")
        name = field.rstrip("?")
        if name not in obj:
            if not optional:
                err(file, where, f"missing field '{name}'")
                ok = False
            continue
        if not TYPES[typ](obj[name]):
            err(file, where, f"field '{name}' should be {typ}, got {json.dumps(obj[name], ensure_ascii=False)[:60]}")
            ok = False
    return ok


def unique_ids(file: str, items, key: str = "id") -> dict:
    seen: dict = {}
    for i, it in enumerate(items or []):
        v = it.get(key) if isinstance(it, dict) else None
        if v in seen:
            err(file, f"[{i}]", f"duplicate {key} {v}")
        seen[v] = it
    return seen


# ---------------------------------------------------------------------------
# HTML fragments
# ---------------------------------------------------------------------------

class Fragment(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED_TAGS:
            self.problems.append(f"tag <{tag}> not allowed")
        if tag == "a" and not dict(attrs).get("href"):
            self.problems.append("<a> without href")
        if tag not in VOID_TAGS:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID_TAGS:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"unbalanced </{tag}>")
        else:
            self.stack.pop()


def check_html(file: str, where: str, s: str) -> None:
    if not s:
        return
    p = Fragment()
    p.feed(s)
    p.close()
    if p.stack:
        p.problems.append(f"unclosed <{p.stack[-1]}>")
    if re.search(r"&(?!(amp|lt|gt|quot|nbsp|#\d+|#x[0-9a-fA-F]+);)", s):
        p.problems.append("bare '&' (write &amp;)")
    for pr in p.problems:
        err(file, where, pr)


HTML_KEYS = {"description", "message", "address", "info", "mainText", "subText", "disclaimers", "description_short"}


def walk_strings(file: str, node, where: str, media: set, files: set) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            w = f"{where}.{k}"
            if k in HTML_KEYS and isinstance(v, str) and v.startswith("<"):
                check_html(file, w, v)
            walk_strings(file, v, w, media, files)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk_strings(file, v, f"{where}[{i}]", media, files)
    elif isinstance(node, str):
        for m in re.findall(r"/media/[A-Za-z0-9_./-]+", node):
            media.add(m)
            if not (CONTENT / m.lstrip("/")).is_file():
                err(file, where, f"image {m} does not exist")
        if node.startswith("/files/"):
            files.add(node)
            if not (CONTENT / node.lstrip("/")).is_file():
                err(file, where, f"file {node} does not exist")


# ---------------------------------------------------------------------------
# file checks
# ---------------------------------------------------------------------------

def check_svg(p: Path) -> None:
    rel = str(p.relative_to(CONTENT))
    size = p.stat().st_size
    if size > MAX_SVG:
        err(rel, "-", f"{size} bytes, over {MAX_SVG}")
    try:
        root = ET.parse(p).getroot()
        if not root.tag.endswith("svg") or not root.get("viewBox"):
            err(rel, "-", "not an SVG with a viewBox")
    except ET.ParseError as e:
        err(rel, "-", f"not well-formed XML: {e}")


def check_pdf(p: Path) -> None:
    rel = str(p.relative_to(CONTENT))
    b = p.read_bytes()
    if not b.startswith(b"%PDF-1."):
        err(rel, "-", "no %PDF header")
        return
    if not b.rstrip().endswith(b"%%EOF"):
        err(rel, "-", "no %%EOF")
    m = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", b)
    if not m:
        err(rel, "-", "no startxref")
        return
    xref = int(m.group(1))
    if b[xref:xref + 4] != b"xref":
        err(rel, "-", "startxref does not point to the xref table")
        return
    head = re.match(rb"xref\s+0\s+(\d+)\s+", b[xref:])
    if not head:
        err(rel, "-", "unreadable xref header")
        return
    count = int(head.group(1))
    pos = xref + head.end()
    for n in range(count):
        entry = b[pos + 20 * n: pos + 20 * n + 20]
        if len(entry) != 20 or not re.fullmatch(rb"\d{10} \d{5} [nf](\r\n| \n| \r)", entry):
            err(rel, f"xref entry {n}", "malformed")
            return
        if entry[17:18] == b"n":
            off = int(entry[:10])
            if not b[off:].startswith(b"%d 0 obj" % n):
                err(rel, f"object {n}", f"xref offset {off} does not point to '{n} 0 obj'")
    for sm in re.finditer(rb"<< /Length (\d+) >>\nstream\n", b):
        length = int(sm.group(1))
        end = sm.end() + length
        if b[end:end + 10] != b"\nendstream":
            err(rel, "-", "stream /Length does not match")
    if b"/Type /Page " not in b and b"/Type /Page\n" not in b:
        err(rel, "-", "no page")


def check_xls(p: Path) -> None:
    rel = str(p.relative_to(CONTENT))
    b = p.read_bytes()
    if not b.startswith(bytes.fromhex("D0CF11E0A1B11AE1")) or len(b) % 512:
        err(rel, "-", "not an OLE2 compound file")
    if "Workbook".encode("utf-16-le") not in b:
        err(rel, "-", "no Workbook stream")


# ---------------------------------------------------------------------------
# per-area checks
# ---------------------------------------------------------------------------

def main() -> int:
    for p in sorted(CONTENT.glob("*/*.json")):
        if p.parent.name != "tools":
            load(str(p.relative_to(CONTENT)))

    lib = DATA.get("documents/library.json") or []
    docs = unique_ids("documents/library.json", lib)
    for i, d in enumerate(lib):
        w = f"[{i}] id {d.get('id')}"
        shape("documents/library.json", w, d, {"id": "int", "title": "str", "name": "str", "subtitle": "text", "category?": "str",
                                                "size": "str", "languages_in_file": "text", "code_points": "text", "file": "str",
                                                "for_internal_use": "bool", "controlled_release": "bool", "upon_request": "bool"})
        f = d.get("file", "")
        if not f.startswith("/files/") or Path(f).name != d.get("name"):
            err("documents/library.json", w, "file must be /files/... and end with the name")
        elif (CONTENT / f.lstrip("/")).is_file():
            n = (CONTENT / f.lstrip("/")).stat().st_size
            want = f"{n / 1024:.0f} KB" if n >= 10240 else f"{n / 1024:.1f} KB"
            if d.get("size") != want:
                err("documents/library.json", w, f"size '{d.get('size')}' should be '{want}' (run tools/generate.py)")

    def doc_ids(file, where, ids):
        for x in ids or []:
            if x not in docs:
                err(file, where, f"document {x} not in documents/library.json")

    # ---- catalogue
    F = "catalogue/segments.json"
    segs = DATA.get(F) or []
    seg_by = unique_ids(F, segs)
    cats = DATA.get("catalogue/categories.json") or []
    cat_by = unique_ids("catalogue/categories.json", cats)
    for x in set(seg_by) & set(cat_by):
        err(F, f"id {x}", "segment and category ids share one id space and must not collide")
    for i, s in enumerate(segs):
        w = f"[{i}] id {s.get('id')}"
        shape(F, w, s, {"id": "int", "type": "str", "name": "str", "preview": "media", "red_label": "str?", "categories": "ids", "thinkclinical": "ids"})
        for c in s.get("categories", []):
            if c not in cat_by:
                err(F, w, f"category {c} not in categories.json")
            elif cat_by[c].get("parent_id") != s.get("id"):
                err(F, w, f"category {c} has another parent_id")
        doc_ids(F, w + ".thinkclinical", s.get("thinkclinical"))
    shoulder = [s for s in segs if s.get("name") == "Shoulder"]
    if not shoulder or not {37, 42} <= set(shoulder[0].get("categories", [])) or len(shoulder[0].get("categories", [])) < 4:
        err(F, "Shoulder", "needs categories 37 and 42 plus at least two others")
    for i, c in enumerate(cats):
        w = f"[{i}] id {c.get('id')}"
        F2 = "catalogue/categories.json"
        shape(F2, w, c, {"id": "int", "type": "str", "name": "str", "preview": "media", "red_label": "str?", "parent_id": "int",
                          "parent_first_level": "bool", "subcategories": "list"})
        if c.get("type") != "category":
            err(F2, w, "type must be 'category'")
        if c.get("parent_id") not in seg_by and c.get("parent_id") not in cat_by:
            err(F2, w, f"parent_id {c.get('parent_id')} not found")
        if c.get("parent_first_level") != (c.get("parent_id") in seg_by):
            err(F2, w, "parent_first_level must be true exactly when the parent is a segment")
        for sc in c.get("subcategories", []):
            shape(F2, w + ".subcategories", sc, {"value": "str", "label": "str"})

    F = "catalogue/products.json"
    prods = DATA.get(F) or []
    prod_by = unique_ids(F, prods)
    comps = DATA.get("catalogue/components.json") or []
    comp_by = unique_ids("catalogue/components.json", comps)
    order_opts = {o["value"] for o in (DATA.get("catalogue/filters.json") or {}).get("order", [])}
    if not {"featured", "az", "newest"} <= order_opts:
        err("catalogue/filters.json", "order", "needs at least featured, az and newest")
    for i, p in enumerate(prods):
        w = f"[{i}] id {p.get('id')}"
        shape(F, w, p, {"id": "int", "name": "str", "parent_id": "int", "parent_first_level": "bool", "subcategory": "str?", "order": "int",
                        "release_date": "date", "preview": "media", "description": "html", "images": "list", "videos": "list", "benefits": "list",
                        "disclaimers": "text", "banner": "dict?", "relatedProducts": "dict", "inDepth": "dict?", "attachments": "list",
                        "components": "ids"})
        if p.get("id") in seg_by or p.get("id") in cat_by:
            err(F, w, "product id collides with a segment or category id")
        par = p.get("parent_id")
        if par not in seg_by and par not in cat_by:
            err(F, w, f"parent_id {par} is neither a segment nor a category")
        if p.get("parent_first_level") != (par in seg_by):
            err(F, w, "parent_first_level must be true exactly when parent_id is a segment")
        subs = {s["value"] for s in cat_by.get(par, {}).get("subcategories", [])}
        if p.get("subcategory") is not None and p.get("subcategory") not in subs:
            err(F, w, f"subcategory '{p.get('subcategory')}' not offered by category {par}")
        if subs and p.get("subcategory") is None:
            err(F, w, f"category {par} has subcategories; pick one")
        if not p.get("images"):
            err(F, w, "needs at least one image")
        for v in p.get("videos", []):
            shape(F, w + ".videos", v, {"preview": "media", "label": "str"})
            if not (v.get("url") or v.get("code")):
                err(F, w + ".videos", "needs url or code")
        if p.get("banner"):
            shape(F, w + ".banner", p["banner"], {"title": "str", "description": "text", "link": "str", "banner": "media"})
        for r in p.get("relatedProducts", {}).get("products", []):
            if r.get("id") not in prod_by and r.get("id") not in {q.get("id") for q in prods}:
                err(F, w, f"related product {r.get('id')} not found")
            elif r.get("name") != next(q["name"] for q in prods if q["id"] == r["id"]):
                err(F, w, f"related product {r.get('id')} name differs")
        ind = p.get("inDepth")
        if ind:
            page = ind.get("page") or {}
            secs = page.get("sections") or []
            shape(F, w + ".inDepth.page", page, {"title": "str", "sections": "list"})
            anchors = {}
            for j, s in enumerate(secs):
                sw = f"{w}.inDepth.page.sections[{j}]"
                shape(F, sw, s, {"label": "str", "path": "str", "content": "dict", "features": "list"})
                shape(F, sw + ".content", s.get("content"), {"image": "media", "title": "str", "mainText": "html", "subText": "html"})
                anchors[s.get("path")] = set()
                for fe in s.get("features", []):
                    shape(F, sw + ".features", fe, {"anchor": "str", "title": "str", "image": "media", "description": "html"})
                    if fe.get("anchor") in anchors[s.get("path")]:
                        err(F, sw, f"duplicate anchor {fe.get('anchor')}")
                    anchors[s.get("path")].add(fe.get("anchor"))
            for it in ind.get("carousel", {}).get("items", []):
                lk = it.get("link", {})
                if lk.get("path") not in anchors or (lk.get("anchor") and lk["anchor"] not in anchors[lk["path"]]):
                    err(F, w + ".inDepth.carousel", f"link {lk} does not match a section path and anchor")
        for a in p.get("attachments", []):
            shape(F, w + ".attachments", a, {"name": "str", "files": "ids"})
            doc_ids(F, w + ".attachments", a.get("files"))
        for c in p.get("components", []):
            if c not in comp_by:
                err(F, w, f"component {c} not found")
            elif comp_by[c].get("parent_id") != p.get("id"):
                err(F, w, f"component {c} belongs to product {comp_by[c].get('parent_id')}")
    F = "catalogue/components.json"
    for i, c in enumerate(comps):
        w = f"[{i}] id {c.get('id')}"
        shape(F, w, c, {"id": "int", "title": "str", "parent_id": "int", "parent_name": "str", "gallery": "list", "material": "str",
                        "sterile": "bool", "notes": "text", "variants": "list"})
        par = next((q for q in prods if q.get("id") == c.get("parent_id")), None)
        if not par:
            err(F, w, f"parent product {c.get('parent_id')} not found")
        else:
            if par.get("name") != c.get("parent_name"):
                err(F, w, "parent_name differs from the product name")
            if c.get("id") not in par.get("components", []):
                err(F, w, "not listed in its product's components")
        for g in c.get("gallery", []):
            shape(F, w + ".gallery", g, {"big": "media"})
        for g in c.get("variants", []):
            shape(F, w + ".variants", g, {"title": "str", "variants": "list"})
            for v in g.get("variants", []):
                shape(F, w + ".variants", v, {"size": "str", "code": "str", "upon_request": "bool"})
    codes = [v["code"] for c in comps for g in c.get("variants", []) for v in g.get("variants", [])]
    if len(codes) != len(set(codes)):
        err(F, "-", "variant codes must be unique")
    if not any(v.get("upon_request") for c in comps for g in c.get("variants", []) for v in g.get("variants", [])):
        err(F, "-", "no variant is upon request")
    cat_docs = DATA.get("catalogue/catalogues.json") or {}
    doc_ids("catalogue/catalogues.json", "documents", cat_docs.get("documents"))

    # ---- news
    F = "news/news.json"
    news = DATA.get(F) or []
    news_by = unique_ids(F, news)
    ncats = {o["value"] for o in (DATA.get("news/filters.json") or {}).get("category", [])}
    for i, n in enumerate(news):
        w = f"[{i}] id {n.get('id')}"
        shape(F, w, n, {"id": "int", "title": "str", "date": "date", "preview": "media", "description": "html", "category": "str"})
        if n.get("category") not in ncats:
            err(F, w, f"category '{n.get('category')}' not in news/filters.json")

    # ---- contacts
    F = "contacts/contacts.json"
    voices = {}
    for i, s in enumerate(DATA.get(F) or []):
        shape(F, f"[{i}]", s, {"tab": "str", "voices": "list"})
        for v in s.get("voices", []):
            shape(F, f"[{i}].voices", v, {"id": "int", "title": "str", "subtitle": "text"})
            if v.get("id") in voices:
                err(F, f"[{i}]", f"duplicate voice id {v.get('id')}")
            voices[v.get("id")] = v
    subs = DATA.get("contacts/subsidiaries.json") or {}
    for k, sub in subs.items():
        shape("contacts/subsidiaries.json", k, sub, {"title": "str", "address?": "html", "phone?": "str", "fax?": "str", "email?": "str"})
        if not k.isdigit() or int(k) not in voices:
            err("contacts/subsidiaries.json", k, "key is not a voice id of contacts.json")
    for vid in voices:
        if str(vid) not in subs:
            err("contacts/subsidiaries.json", str(vid), "voice has no subsidiary entry")

    # ---- useful, multimedia
    for i, l in enumerate(DATA.get("useful/links.json") or []):
        shape("useful/links.json", f"[{i}]", l, {"id": "int", "title": "str", "link": "str", "image": "media"})
        if not str(l.get("link", "")).startswith("https://"):
            err("useful/links.json", f"[{i}]", "link must be https")
    mf = DATA.get("multimedia/filters.json") or {}
    for kind, file, spec in (("videos", "multimedia/videos.json", {"id": "int", "label": "str", "title": "str", "preview": "media",
                                                                   "preview_image": "media", "url": "str?", "code": "str?", "hero": "bool",
                                                                   "segment": "int", "category": "str", "year": "int"}),
                             ("images", "multimedia/images.json", {"id": "int", "preview": "media", "hd": "media", "image": "media", "img": "media",
                                                                   "label": "str", "text": "text", "segment": "int", "category": "str", "year": "int"})):
        items = DATA.get(file) or []
        unique_ids(file, items)
        opts = mf.get(kind, {})
        for i, it in enumerate(items):
            shape(file, f"[{i}]", it, spec)
            for fk in ("segment", "category", "year"):
                if it.get(fk) not in {o["value"] for o in opts.get(fk, [])}:
                    err(file, f"[{i}]", f"{fk} {it.get(fk)} not in multimedia/filters.json")
            if kind == "videos" and not (it.get("url") or it.get("code")):
                err(file, f"[{i}]", "needs url or code")
        if kind == "videos" and sum(1 for v in items if v.get("hero")) != 1:
            err(file, "-", "exactly one hero video expected")
        for s in opts.get("segment", []):
            if s["value"] not in seg_by:
                err("multimedia/filters.json", kind, f"segment {s['value']} not found")

    # ---- congresses and activities
    F = "congresses/congresses.json"
    congs = DATA.get(F) or []
    cong_by = unique_ids(F, congs)
    acts = DATA.get("congresses/activities.json") or []
    act_by = unique_ids("congresses/activities.json", acts)
    TAB_TITLES = {"info": "Info", "details": "Details", "hotel": "Hotel & Transfer", "day": "Day by day", "activities": "Activities",
                  "messages": "Key messages", "media": "Media", "downloads": "Downloads", "contacts": "Contacts"}
    hotel_spec = {"image": "media", "name": "str", "address": "html", "googlemaps": "str", "checkin_date": "date", "checkout_date": "date",
                  "info": "html", "save_event": "bool"}
    transfer_spec = {"transfer_date": "date", "transfer_time": "time", "transfer_return_date": "date", "transfer_return_time": "time",
                     "info": "html", "save_event": "bool"}
    timing_spec = {"from_date": "date", "from_time": "time", "to_date": "date", "to_time": "time", "save_event": "bool",
                   "description": "html", "description_short": "html"}
    long_transfers = 0
    for i, c in enumerate(congs):
        w = f"[{i}] id {c.get('id')}"
        shape(F, w, c, {"id": "int", "name": "str", "subtitle": "text", "type": "str", "dates": "str", "date": "date", "preview": "media", "tabs": "dict"})
        if c.get("type") not in ("event", "congress"):
            err(F, w, "type must be 'event' or 'congress'")
        tabs = c.get("tabs", {})
        for k, t in TAB_TITLES.items():
            if k not in tabs:
                err(F, w, f"tab '{k}' missing")
            elif tabs[k].get("title") != t or not isinstance(tabs[k].get("content"), dict):
                err(F, w, f"tab '{k}' needs title '{t}' and a content object")
        if set(tabs) - set(TAB_TITLES):
            err(F, w, f"unknown tabs {sorted(set(tabs) - set(TAB_TITLES))}")
        tc = lambda k: (tabs.get(k) or {}).get("content") or {}
        info = tc("info")
        shape(F, w + ".info", info, {"image": "media", "intro_video": "dict?", "first_date": "date", "first_date_time": "time", "last_date": "date",
                                     "last_date_time": "time", "save_event": "bool", "link": "str", "description": "html", "description_short": "html"})
        if info.get("intro_video"):
            shape(F, w + ".info.intro_video", info["intro_video"], {"preview_image": "media", "url": "str"})
        if info.get("first_date") != c.get("date") or str(info.get("last_date")) < str(info.get("first_date")):
            err(F, w, "date must equal info.first_date and last_date must not be before it")
        det = tc("details")
        shape(F, w + ".details", det, {"congress_venue": "dict", "timing_dates": "dict", "meridian_booth": "dict", "useful_information": "dict"})
        shape(F, w + ".details.congress_venue", det.get("congress_venue"), {"gallery": "list", "description": "html", "link_googlemaps": "str",
                                                                            "link_googlemaps_label": "str", "link_download": "str?", "link_download_label": "str?"})
        shape(F, w + ".details.timing_dates", det.get("timing_dates"), timing_spec)
        shape(F, w + ".details.meridian_booth", det.get("meridian_booth"), {"gallery": "list", "description": "html"})
        ho = tc("hotel")
        shape(F, w + ".hotel", ho, {"hotel": "dict", "transfer": "dict", "additional_hotels": "list", "additional_transfers": "list"})
        shape(F, w + ".hotel.hotel", ho.get("hotel"), hotel_spec)
        shape(F, w + ".hotel.transfer", ho.get("transfer"), transfer_spec)
        for h in ho.get("additional_hotels", []):
            shape(F, w + ".hotel.additional_hotels", h, hotel_spec)
        for t in ho.get("additional_transfers", []):
            shape(F, w + ".hotel.additional_transfers", t, transfer_spec)
        if len(re.sub(r"<[^>]+>", "", (ho.get("transfer") or {}).get("info", ""))) > 400:
            long_transfers += 1
        for d in tc("day").get("events", []):
            shape(F, w + ".day", d, {"date": "date", "events": "list"})
            for e in d.get("events", []):
                shape(F, w + ".day.events", e, {"time": "str", "title": "str", "subtitle": "text", "description": "html", "save_event": "bool"})
        for g in tc("activities").get("activities", []):
            shape(F, w + ".activities", g, {"label": "str", "events": "ids"})
            for a in g.get("events", []):
                if a not in act_by:
                    err(F, w + ".activities", f"activity {a} not found")
                elif act_by[a].get("parent_id") != c.get("id"):
                    err(F, w + ".activities", f"activity {a} belongs to congress {act_by[a].get('parent_id')}")
        for m in tc("messages").get("messages", []):
            shape(F, w + ".messages", m, {"title": "str", "description": "html", "images": "list"})
        med = tc("media")
        shape(F, w + ".media", med, {"accordions": "list", "general_images": "list", "general_videos": "list"})
        for a in med.get("accordions", []):
            shape(F, w + ".media.accordions", a, {"title": "str", "images": "list", "videos": "list"})
        doc_ids(F, w + ".downloads", tc("downloads").get("files"))
        shape(F, w + ".contacts", tc("contacts"), {"name": "str", "phone": "str", "email": "str", "congress_venue": "dict", "hotel": "dict", "staff": "list"})
    if congs and long_transfers * 2 <= len(congs):
        err(F, "-", "most congresses need a transfer info text over 400 characters")
    F = "congresses/activities.json"
    for i, a in enumerate(acts):
        w = f"[{i}] id {a.get('id')}"
        shape(F, w, a, {"id": "int", "title": "str", "subtitle1": "text", "subtitle2": "text", "location": "str", "image": "media",
                        "start_date": "date", "start_date_time": "time", "end_date": "date", "end_date_time": "time", "save_event": "bool",
                        "description": "html", "experts": "list", "files": "ids", "parent_id": "int", "parent_name": "str", "type": "str", "googlemaps": "str"})
        for e in a.get("experts", []):
            shape(F, w + ".experts", e, {"name": "str", "subtitle": "text", "preview": "media", "description": "html", "image": "media"})
        doc_ids(F, w, a.get("files"))
        par = cong_by.get(a.get("parent_id"))
        if not par:
            err(F, w, f"parent congress {a.get('parent_id')} not found")
        elif par.get("name") != a.get("parent_name"):
            err(F, w, "parent_name differs from the congress name")
        elif not any(a.get("id") in g.get("events", []) for g in par["tabs"]["activities"]["content"].get("activities", [])):
            err(F, w, "not listed in its congress's activities tab")

    # ---- training
    F = "training/trainings.json"
    trs = DATA.get(F) or []
    unique_ids(F, trs)
    lunch = False
    ev_ids = set()
    for i, t in enumerate(trs):
        w = f"[{i}] id {t.get('id')}"
        shape(F, w, t, {"id": "int", "name": "str", "subtitle": "text", "dates": "str", "start_date": "date", "end_date": "date", "preview": "media",
                        "text_over_website": "text", "website": "str", "link": "str", "tabs": "dict"})
        tabs = t.get("tabs", {})
        for k in ("info", "details", "hotel", "day", "activities", "key", "downloads", "contacts"):
            if k not in tabs or not isinstance(tabs[k].get("content"), dict) or not tabs[k].get("title"):
                err(F, w, f"tab '{k}' missing or without title/content")
        info = (tabs.get("info") or {}).get("content", {})
        shape(F, w + ".info", info, {"name": "str", "first_date": "date", "last_date": "date", "save_event": "bool", "description": "html", "registration": "dict"})
        if info.get("name") != t.get("name"):
            err(F, w, "info.content.name must equal the training name")
        shape(F, w + ".details", (tabs.get("details") or {}).get("content"), {"congress_venue": "dict", "main_topics": "dict", "useful_information": "dict"})
        for g in (tabs.get("activities") or {}).get("content", {}).get("activities", []):
            for e in g.get("events", []):
                shape(F, w + ".activities", e, {"id": "int", "title": "str", "location": "str", "start_date": "date", "start_date_time": "time",
                                                "end_date": "date", "end_date_time": "time", "experts": "list", "type": "str", "googlemaps": "str"})
                if e.get("id") in ev_ids:
                    err(F, w, f"duplicate activity event id {e.get('id')}")
                ev_ids.add(e.get("id"))
                lunch = lunch or e.get("type") == "lunch"
        for m in (tabs.get("key") or {}).get("content", {}).get("messages", []):
            shape(F, w + ".key", m, {"title": "str", "description": "html", "images": "list"})
        doc_ids(F, w + ".downloads", (tabs.get("downloads") or {}).get("content", {}).get("files"))
        shape(F, w + ".contacts", (tabs.get("contacts") or {}).get("content"), {"name": "str", "phone": "str", "email": "str", "website": "str",
                                                                               "congress_venue": "dict", "hotel": "dict", "staff": "list"})
    if trs and not lunch:
        err(F, "-", "at least one training activity of type 'lunch' is expected")

    # ---- courses
    F = "courses/courses.json"
    crs = DATA.get(F) or []
    course_by = unique_ids(F, crs)
    LABELS = {"course": "Course", "online": "Online course", "third": "3rd-Party event", "other": "Other"}
    for i, c in enumerate(crs):
        w = f"[{i}] id {c.get('id')}"
        shape(F, w, c, {"id": "int", "title": "str", "subtitle": "text", "category": "dict", "typology": "str", "print_date": "str",
                        "start_date": "date", "end_date": "date", "language": "str", "course_level": "str", "location?": "str",
                        "segment": "list", "speakers": "list", "preview": "media", "videos": "list", "images": "list", "description": "html",
                        "files": "ids", "show_tabs": "bool", "show_register": "bool", "evenium": "str?", "show_learn_contact": "bool",
                        "save_outlook": "dict", "days": "list"})
        cl = (c.get("category") or {}).get("class")
        if LABELS.get(cl) != (c.get("category") or {}).get("label"):
            err(F, w, f"category {c.get('category')} must be one of {LABELS}")
        if cl == "online" and "location" in c:
            err(F, w, "online courses have no location")
        for s in c.get("segment", []):
            shape(F, w + ".segment", s, {"id": "int", "image": "media"})
            if s.get("id") not in seg_by:
                err(F, w, f"segment {s.get('id')} not found")
        names = set()
        for s in c.get("speakers", []):
            shape(F, w + ".speakers", s, {"preview": "media", "name": "str", "country": "str"})
            names.add(s.get("name"))
        doc_ids(F, w, c.get("files"))
        so = c.get("save_outlook", {})
        for k in ("start_date", "end_date"):
            shape(F, w + f".save_outlook.{k}", so.get(k), {"date": "date", "time": "time"})
        for d in c.get("days", []):
            shape(F, w + ".days", d, {"date_value": "date", "date_text": "str", "time": "str", "title": "str", "speakers": "list", "description": "html", "files": "ids"})
            if not (str(c.get("start_date")) <= str(d.get("date_value")) <= str(c.get("end_date"))):
                err(F, w, f"day {d.get('date_value')} outside the course dates")
            for sp in d.get("speakers", []):
                if sp not in names:
                    err(F, w, f"day speaker '{sp}' is not a course speaker")
            doc_ids(F, w + ".days", d.get("files"))
    if {(c.get("category") or {}).get("class") for c in crs} != set(LABELS):
        err(F, "-", "every category class (course, online, third, other) must appear")
    cf = DATA.get("courses/filters.json") or {}
    for s in cf.get("segment", []):
        if s["value"] not in seg_by:
            err("courses/filters.json", "segment", f"{s['value']} not found")

    # ---- notifications, updates, onboarding
    F = "notifications/notifications.json"
    targets = {"products": prod_by, "news": news_by, "congress": cong_by, "learn": course_by, "training": {t.get("id"): t for t in trs}}
    for i, n in enumerate(DATA.get(F) or []):
        w = f"[{i}] id {n.get('id')}"
        shape(F, w, n, {"id": "int", "title": "str", "date": "str", "message": "html", "preview": "media?", "link": "dict?"})
        lk = n.get("link")
        if lk and lk.get("type") in targets and lk.get("id") is not None and lk["id"] not in targets[lk["type"]]:
            err(F, w, f"link {lk} does not resolve")
    for i, u in enumerate(DATA.get("notifications/updates.json") or []):
        F = "notifications/updates.json"
        w = f"[{i}] id {u.get('id')}"
        shape(F, w, u, {"id": "int", "name": "str", "release": "str", "date": "date", "preview": "media", "gallery": "list", "url": "str"})
        if not 3 <= len(u.get("gallery", [])) <= 4:
            err(F, w, "gallery should hold 3 or 4 images")
        for g in u.get("gallery", []):
            shape(F, w + ".gallery", g, {"image": "media"})
        if not u.get("url", "").startswith("/app/"):
            err(F, w, "url should start with /app/")
        m = re.fullmatch(r"/app/news/(\d+)", u.get("url", ""))
        if m and int(m.group(1)) not in news_by:
            err(F, w, f"url points to missing news {m.group(1)}")
    for i, s in enumerate(DATA.get("onboarding/slides.json") or []):
        shape("onboarding/slides.json", f"[{i}]", s, {"id": "int", "title": "str", "image": "media"})

    # ---- document seed
    F = "documents/seed.json"
    seed = DATA.get(F) or {}
    users = {u.get("email") for u in seed.get("users", [])}
    keys: set = set()

    def walk_seed(nodes, where, depth):
        for j, n in enumerate(nodes or []):
            nw = f"{where}[{j}]"
            if n.get("key") in keys:
                err(F, nw, f"duplicate key {n.get('key')}")
            keys.add(n.get("key"))
            for e in n.get("shared_with", []):
                if e not in users:
                    err(F, nw, f"shared_with {e} is not a seeded user")
            if n.get("type") == "folder":
                shape(F, nw, n, {"key": "str", "type": "str", "name": "str", "children": "list"})
                if depth >= 5:
                    err(F, nw, "deeper than 5 levels")
                walk_seed(n.get("children"), nw + ".children", depth + 1)
            else:
                shape(F, nw, n, {"key": "str", "type": "str", "title": "str", "name": "str", "file": "str", "for_internal_use": "bool",
                                 "controlled_release": "bool", "upon_request": "bool"})
                if n.get("type") != "file" or Path(n.get("file", "")).name != n.get("name") or not re.search(r"\.(pdf|xls)$", n.get("name", "")):
                    err(F, nw, "type must be 'file' and file must end with the name (.pdf or .xls)")

    for u in seed.get("users", []):
        walk_seed(u.get("my"), f"users[{u.get('email')}].my", 1)
    walk_seed(seed.get("us"), "us", 1)
    if not any(n.get("shared_with") for n in _flatten(seed)):
        err(F, "-", "no item is shared between users")

    # ---- every path, every HTML fragment
    media, files = set(), set()
    for rel, d in DATA.items():
        if d is not None:
            walk_strings(rel, d, "$", media, files)

    # ---- files on disk
    for p in sorted((CONTENT / "media").rglob("*")):
        if p.is_file():
            if p.suffix != ".svg":
                err(str(p.relative_to(CONTENT)), "-", "only SVG images are expected")
            else:
                check_svg(p)
            if "/" + str(p.relative_to(CONTENT)) not in media:
                err(str(p.relative_to(CONTENT)), "-", "not referenced by any JSON file")
    for p in sorted((CONTENT / "files").rglob("*")):
        if p.is_file():
            if p.suffix == ".pdf":
                check_pdf(p)
            elif p.suffix == ".xls":
                check_xls(p)
            else:
                err(str(p.relative_to(CONTENT)), "-", "only .pdf and .xls documents are expected")
    total = sum(p.stat().st_size for p in CONTENT.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    if total > MAX_TOTAL:
        err("content", "-", f"{total} bytes, over {MAX_TOTAL}")

    # ---- minimum amounts the demo promises
    need = {"catalogue/segments.json": 5, "catalogue/products.json": 30, "catalogue/components.json": 40, "news/news.json": 24,
            "congresses/congresses.json": 8, "training/trainings.json": 5, "courses/courses.json": 12, "useful/links.json": 8,
            "notifications/notifications.json": 5, "notifications/updates.json": 2, "onboarding/slides.json": 4}
    for rel, n in need.items():
        if len(DATA.get(rel) or []) < n:
            err(rel, "-", f"at least {n} items expected")

    # ---- generated files up to date
    r = subprocess.run([sys.executable, str(CONTENT / "tools" / "generate.py"), "--check"], capture_output=True, text=True)
    if r.returncode != 0:
        for line in r.stdout.splitlines():
            err("tools/generate.py --check", "-", line)

    for e in ERRORS:
        print(e)
    print(f"{'FAILED' if ERRORS else 'OK'}: {len(ERRORS)} problem(s); {len(media)} images, {len(files)} document paths, "
          f"{len(docs)} library documents, {total / 1024:.0f} KB in total")
    return 1 if ERRORS else 0


def _flatten(seed):
    out = []

    def rec(nodes):
        for n in nodes or []:
            out.append(n)
            rec(n.get("children"))
    for u in seed.get("users", []):
        rec(u.get("my"))
    rec(seed.get("us"))
    return out


if __name__ == "__main__":
    sys.exit(main())
