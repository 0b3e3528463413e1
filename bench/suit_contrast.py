"""How card codes in a board's text look in a browser: the contrast of each suit sign on
Discord's dark and light backgrounds, and how often a card splits across two lines.

Renders in Chromium (Debian's ``chromium``, through Playwright's ``executable_path``)
with the fonts of SimCord's Preview (Noto Sans, then Noto Color Emoji, as the Preview
stacks them), so a suit with an emoji form is drawn as the Preview draws it. Prints, per
theme and suit form, the stroke's strongest pixel against the background (WCAG contrast
ratio), how many of the glyph's pixels are coloured (an emoji), and, for a card placed at
the end of a line at 114 widths, at how many widths it was split.

    pip install "simcord[preview]" playwright
    python bench/suit_contrast.py [--chromium PATH]

Prints numbers only (see docs/developers/boards.md for what was measured and chosen)."""

from __future__ import annotations

import argparse
import asyncio
import io
import shutil
import tempfile
from pathlib import Path

from PIL import Image

from bot.words.render_util import card_text, unbroken

BLACK = {"♠ (emoji)": "J♠", "♣ (emoji)": "10♣", "♥ (emoji)": "9♥", "♦ (emoji)": "A♦"}
WHITE = {f"{card_text(code)[-1]} (card_text)": card_text(code) for code in ("Js", "Tc", "9h", "Ad")}
SELECTOR = {"♠ + U+FE0E": "J♠\ufe0e", "♣ + U+FE0E": "10♣\ufe0e"}
THEMES = {"dark": ("#313338", "#dbdee1"), "light": ("#ffffff", "#313338")}  # Discord's message background and text
WIDTHS = range(60, 400, 3)


def luminance(rgb: tuple[int, ...]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def page(fonts: Path, background: str, colour: str, body: str) -> str:
    return f"""<html><head><meta charset="utf-8"><style>
@font-face {{ font-family: "Noto Sans"; src: url('file://{fonts}/noto-sans-latin-v2.015.ttf'); }}
@font-face {{ font-family: "Noto Color Emoji"; src: url('file://{fonts}/noto-color-emoji-v2.051.ttf'); }}
body {{ background: {background}; color: {colour}; font: 16px/22px "Noto Sans", "Noto Color Emoji", sans-serif; margin: 8px; }}
span.s {{ display: inline-block; padding: 0 4px; }}
</style></head><body>{body}</body></html>"""


async def measure(chromium: str) -> None:
    import simcord.preview
    from playwright.async_api import async_playwright

    fonts = Path(simcord.preview.__file__).with_name("static") / "fonts"
    samples = {**BLACK, **WHITE, **SELECTOR}
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "page.html"
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            tab = await browser.new_page(device_scale_factor=2)
            print(f"{'theme':6} {'suit':18} {'contrast':>9}  coloured pixels")
            for theme, (background, colour) in THEMES.items():
                body = "".join(f'<div><span class="s" id="s{i}">{text}</span></div>' for i, text in enumerate(samples.values()))
                html.write_text(page(fonts, background, colour, body), encoding="utf-8")
                await tab.goto(html.as_uri())
                await tab.evaluate("document.fonts.ready")
                ground = tuple(int(background[i:i + 2], 16) for i in (1, 3, 5))
                for i, label in enumerate(samples):
                    box = await (await tab.query_selector(f"#s{i}")).bounding_box()
                    suit = {"x": box["x"] + box["width"] * 0.55, "y": box["y"], "width": box["width"] * 0.45, "height": box["height"]}
                    image = Image.open(io.BytesIO(await tab.screenshot(clip=suit))).convert("RGB")
                    ink = sorted((p for p in image.getdata() if contrast(p, ground) > 1.05), key=lambda p: contrast(p, ground))
                    coloured = sum(1 for p in ink if max(p) - min(p) > 40)
                    print(f"{theme:6} {label:18} {contrast(ink[-1], ground) if ink else 1:8.2f}:1  {coloured}/{len(ink)}")
            for label, card in (("2🪙", "2🪙"), ("2 WJ 🪙 (unbroken)", unbroken("2🪙")), ("10♣", "10♣"), ("card_text('Tc')", card_text("Tc"))):
                split = 0
                for width in WIDTHS:
                    html.write_text(page(fonts, "#fff", "#000", f'<div style="width:{width}px">xx xxx xxxx x xx xxx <span id=c>{card}</span> yy</div>'), encoding="utf-8")
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
