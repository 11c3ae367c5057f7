"""The static site (``make site``, ``python -m solver.web.site OUT``): the
page, the C core compiled to WebAssembly and the verdict indexes, served by
any static file server, the game's rules of play and its hints computed in
the player's browser (docs/web.md, "The game with no server").

It writes into ``OUT`` (``build/site``):

- the page (``index.html``, ``style.css``, ``app.js``) with relative paths
  and ``<meta name="solver-mode" content="local">``, which tells app.js to
  answer itself (``local.js``) instead of asking a server;
- the page's other modules (``core.js``, ``search-worker.js``, ``local.js``
  among them) and ``core.wasm``;
- ``site-data.json``: the variants as ``/api/variants`` lists them, with
  each one's rules struct (what :func:`site_data` writes);
- ``verdicts/``: the verdict indexes, as the package ships them;
- ``sw.js``, a service worker that keeps every file of the site (its
  version is the files' hash, so a new build replaces the old), and
  ``manifest.webmanifest`` with its icons, so that a phone can install it
  and it plays offline.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

from .. import families, verdicts
from .._core import ffi
from ..core import flags_for
from ..variants import load, names
from . import FIRST, STATIC, variants_json

ROOT = Path(__file__).resolve().parents[2]
WASM = ROOT / "build" / "wasm" / "core.wasm"
#: The page's files, as they are: its style sheet and its modules (index.html
#: is rewritten, sw.js written).
PAGE_FILES = ("style.css", *sorted(p.name for p in STATIC.glob("*.js") if p.name != "sw.js"))
NAME = "Napoleon's Tomb and two two-deck patiences"
SHORT_NAME = "Patience"
THEME = "#1f5130"


#: The hints' limit in the browser: 3 s of the player's wall clock and
#: 256 MiB, which a phone has to spare (the positions cap is only a guard).
LIMITS = {"positions": 50_000_000, "seconds": 3, "memory": 256 * 2**20}


def _plain(value: Any, ctype: Any) -> Any:
    if ctype.kind == "array":
        return [_plain(v, ctype.item) for v in value]
    return int(value)


def struct_fields(struct: Any) -> dict[str, Any]:
    """A cffi struct's fields (a pointer to it) as JSON, by their C names."""
    return {name: _plain(getattr(struct, name), f.type) for name, f in ffi.typeof(struct).item.fields}


def site_data(limits: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the static page knows of the variants (``site-data.json``):
    ``variants`` and ``first``, the ``/api/variants`` answer; per variant in
    ``rules``, its family, decks, cards,
    rules struct, whether the blind players play it (its fair hints and
    difficulty), its search's shortcut ``flags`` (all of them) and its
    verdict ``index`` (``first``, ``last``, the deals left ``unknown``; the
    bitset is ``verdicts/<variant>.bits.zlib``); and the hints' ``limits``."""
    served = {name: load(name) for name in names()}
    rules = {}
    for name, variant in served.items():
        family = families.of(variant)
        index = verdicts.index_for(variant)
        rules[name] = {
            "family": variant.family,
            "decks": variant.decks,
            "cards": variant.cards,
            "rules": struct_fields(family.rules_struct(variant)),
            "blind_players": family.blind_players,
            "flags": flags_for(True, family.name),
            "index": None
            if index is None
            else {"first": index.first, "last": index.last, "unknown": sorted(index.unknown)},
        }
    return {"variants": variants_json(served), "first": FIRST, "rules": rules, "limits": limits or LIMITS}


def _page(html: str) -> str:
    """index.html for the site: its paths relative, the local mode, the manifest."""
    html = html.replace('href="/static/', 'href="').replace('src="/static/', 'src="')
    head = (
        '<meta name="solver-mode" content="local">\n'
        f'<meta name="theme-color" content="{THEME}">\n'
        '<link rel="manifest" href="manifest.webmanifest">\n'
        '<link rel="apple-touch-icon" href="icon-192.png">\n'
    )
    html = html.replace('<link rel="icon" href="data:,">', '<link rel="icon" href="icon.svg">')
    return html.replace("</head>", head + "</head>", 1)


ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="12" fill="#1f5130"/>
<rect x="17" y="10" width="30" height="44" rx="4" fill="#fff"/>
<path d="M32 20 L41 32 L32 44 L23 32 Z" fill="#c0392b"/>
</svg>
"""


def _png(size: int) -> bytes:
    """The icon as a PNG of ``size`` pixels: the SVG's shapes drawn pixel by
    pixel (a green tile, a white card, a red diamond)."""
    s = size / 64
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            u, v = x / s, y / s
            colour = (0x1F, 0x51, 0x30)
            if 17 <= u < 47 and 10 <= v < 54:
                colour = (0xC0, 0x39, 0x2B) if abs(u - 32) / 9 + abs(v - 32) / 12 <= 1 else (255, 255, 255)
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def _manifest() -> str:
    return json.dumps(
        {
            "name": NAME,
            "short_name": SHORT_NAME,
            "description": "Patience with hints that are proofs, solved on your own device.",
            "start_url": "./",
            "scope": "./",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME,
            "icons": [
                {"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
                {"src": "icon-512.png", "sizes": "512x512", "type": "image/png"},
                {"src": "icon.svg", "sizes": "any", "type": "image/svg+xml"},
            ],
        },
        indent=1,
    )


def _service_worker(files: list[str], version: str) -> str:
    return (
        (STATIC / "sw.js")
        .read_text(encoding="utf-8")
        .replace("const VERSION = null;", f"const VERSION = {json.dumps(version)};")
        .replace("const FILES = [];", f"const FILES = {json.dumps(files)};")
    )


def build(out: Path, wasm: Path = WASM, limits: dict[str, Any] | None = None) -> list[str]:
    """Writes the site into ``out`` (emptied first), its hints within
    ``limits`` (:data:`LIMITS`); returns its files."""
    if not wasm.is_file():
        raise FileNotFoundError(f"{wasm} is missing: make wasm builds it")
    if out.exists() and any(out.iterdir()):
        if not (out / "site-data.json").is_file():
            raise FileExistsError(f"{out} holds files and no site: give a new folder or an old site's")
        shutil.rmtree(out)
    (out / "verdicts").mkdir(parents=True)
    (out / "index.html").write_text(_page((STATIC / "index.html").read_text(encoding="utf-8")), encoding="utf-8")
    for name in PAGE_FILES:
        shutil.copyfile(STATIC / name, out / name)
    shutil.copyfile(wasm, out / "core.wasm")
    (out / "site-data.json").write_text(json.dumps(site_data(limits), separators=(",", ":")), encoding="utf-8")
    for path in sorted(verdicts.HERE.glob("*.bits.zlib")) + [verdicts.HERE / "index.json"]:
        shutil.copyfile(path, out / "verdicts" / path.name)
    (out / "icon.svg").write_text(ICON_SVG, encoding="utf-8")
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(_png(size))
    (out / "manifest.webmanifest").write_text(_manifest(), encoding="utf-8")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    (out / "sw.js").write_text(_service_worker(["./"] + files, digest.hexdigest()[:16]), encoding="utf-8")
    return files + ["sw.js"]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else ROOT / "build" / "site")
    try:
        files = build(out)
    except (FileNotFoundError, FileExistsError) as exc:
        print(f"site: {exc}", file=sys.stderr)
        return 2
    size = sum((out / f).stat().st_size for f in files)
    print(f"site: {len(files)} files, {size / 1024:.0f} KiB, in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
