"""How card codes in a board's text look in a browser: the contrast of each candidate suit
sign on Discord's dark and light backgrounds, and how often a card splits across two lines.

Renders in Chromium (Debian's ``chromium``, through Playwright's ``executable_path``) with
SimCord's Preview's own fonts and font stack (its stylesheet's ``@font-face`` rules and
``--preview-font-sans``: Noto Sans, then Noto Color Emoji, then the other Notos), so a sign
with an emoji form is drawn as the Preview draws it. Each sign is measured as
``tools/see.py`` measures a board (``see.glyph_contrast``: the median of the most differing
half of the glyph's differing pixels against its background, WCAG 2 ratio), also in bold,
with the number of its coloured pixels (an emoji draws some). A card placed at the end of a
line at 114 widths tells at how many widths it was split.

    pip install "simcord[preview]" playwright
    python bench/suit_contrast.py [--chromium PATH]

Prints numbers only (see docs/developers/boards.md for what was measured and chosen)."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.words.render_util import card_text, text_cards, unbroken  # noqa: E402
from tools.see import glyph_contrast  # noqa: E402

VS15 = "\ufe0e"  # VARIATION SELECTOR-15: text presentation
#: The candidates, by what they are: each a suit sign as a card's text would end with it.
CANDIDATES = {
    "♠ ♣ ♥ ♦ (emoji)": ("♠", "♣", "♥", "♦"),
    "♤ ♧ ♡ ♢ (white signs)": ("♤", "♧", "♡", "♢"),
    "♠︎ ♣︎ ♥︎ ♦︎ (+U+FE0E)": tuple(s + VS15 for s in "♠♣♥♦"),
    "🪄 🪙 🏆 ⚔ (Onion's emoji)": ("🪄", "🪙", "🏆", "⚔"),
    "⚔︎ (+U+FE0E)": ("⚔" + VS15,),
    "other text signs": ("⚚", "⚕" + VS15, "⸸", "†", "¤", "⊙", "⛀", "◎", "∪", "⛾", "☕" + VS15, "⚱" + VS15, "♁"),
    "what card_text prints": tuple(dict.fromkeys(card_text(code)[-2:].lstrip("\u2060") for code in ("Js", "Tc", "9h", "Ad"))),
    "what Onion's text prints": tuple(dict.fromkeys(text_cards(f"2{s}")[-2:].lstrip("\u2060") for s in "⚔🪄🏆🪙")),
}
THEMES = {"dark": ("#323339", "#f3f3f4"), "light": ("#ffffff", "#313338")}  # the Preview's, and Discord's light
WIDTHS = range(60, 400, 3)


def preview_css() -> str:
    """The Preview's @font-face rules (its fonts, from the installed package) and font stack."""
    import simcord.preview

    static = Path(simcord.preview.__file__).with_name("static")
    css = (static / "preview.css").read_text(encoding="utf-8")
    faces = "".join(re.findall(r"@font-face\s*{[^}]*}", css)).replace('url("/fonts/', f'url("{(static / "fonts").as_uri()}/')
    stack = re.search(r"--preview-font-sans:([^;]+);", css).group(1)
    return faces + f"body {{ font-family: {stack}; font-size: 16px; line-height: 22px; }}"


def page(css: str, background: str, colour: str, body: str) -> str:
    return f"""<html><head><meta charset="utf-8"><style>{css}
body {{ background: {background}; color: {colour}; margin: 8px; }}
span.s {{ display: inline-block; padding: 2px 3px; }}
</style></head><body>{body}</body></html>"""


async def measure(chromium: str) -> None:
    from playwright.async_api import async_playwright

    css = preview_css()
    signs = list(dict.fromkeys(s for group in CANDIDATES.values() for s in group))
    results: dict[tuple[str, str, bool], tuple[float, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "page.html"
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium)
            tab = await browser.new_page(device_scale_factor=1)
            for theme, (background, colour) in THEMES.items():
                body = "".join(f'<div><span class="s" id="s{i}">{s}</span> <b><span class="s" id="b{i}">{s}</span></b></div>'
                               for i, s in enumerate(signs))
                html.write_text(page(css, background, colour, body), encoding="utf-8")
                await tab.goto(html.as_uri())
                await tab.evaluate("document.fonts.ready")
                for i, sign in enumerate(signs):
                    for bold in (False, True):
                        box = await (await tab.query_selector(f"#{'b' if bold else 's'}{i}")).bounding_box()
                        image = Image.open(io.BytesIO(await tab.screenshot(clip=box, full_page=True))).convert("RGB")
                        raw = image.tobytes()
                        coloured = sum(1 for i in range(0, len(raw), 3) if max(raw[i:i + 3]) - min(raw[i:i + 3]) > 40)
                        results[theme, sign, bold] = (glyph_contrast(image) or 1.0, coloured)
            print(f"{'sign':12} {'dark':>7} {'light':>7} {'bold dk':>7} {'bold lt':>7}  coloured px (dark)")
            for group, members in CANDIDATES.items():
                print(f"-- {group}")
                for sign in members:
                    cells = [results[t, sign, b][0] for b in (False, True) for t in THEMES]
                    shown = sign.replace(VS15, "+FE0E")
                    print(f"{shown:12} " + " ".join(f"{c:5.2f}:1".rjust(7) for c in cells)
                          + f"  {results['dark', sign, False][1]}")
            for label, card in (("2🪙", "2🪙"), ("2 WJ 🪙 (unbroken)", unbroken("2🪙")), ("10♣", "10♣"),
                                ("card_text('Tc')", card_text("Tc"))):
                split = 0
                for width in WIDTHS:
                    html.write_text(page(css, "#fff", "#000", f'<div style="width:{width}px">xx xxx xxxx x xx xxx <span id=c>{card}</span> yy</div>'), encoding="utf-8")
                    await tab.goto(html.as_uri())
                    split += await tab.evaluate("() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('c')); return r.getClientRects().length > 1 }")
                print(f"{label:20} split across two lines at {split} of {len(WIDTHS)} widths")
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"), help="the browser Playwright launches (default: chromium on the PATH)")
    asyncio.run(measure(parser.parse_args().chromium))


if __name__ == "__main__":
    main()
