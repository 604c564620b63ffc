"""How alike a replayed state is to its recording: its picture by pixels, its text by words.

Pictures are compared at the thumbnail's width (:data:`PICTURE_WIDTH`): both are scaled there
and slightly blurred, so JPEG noise and scaling do not count, and the pixel similarity is the
share of pixels whose colour stayed within :data:`PIXEL_TOLERANCE`. The text similarity is
difflib's ratio of the two visible texts taken as words. A state *matches* when both reach
their thresholds (:data:`MIN_PIXELS`, :data:`MIN_TEXT`): a missing stylesheet, image or font
moves far more pixels than that, a clock's seconds far fewer.
"""

from __future__ import annotations

import io
from difflib import SequenceMatcher
from urllib.parse import urlsplit

from PIL import Image, ImageFilter, UnidentifiedImageError

from ..errors import ArchiveError, StatecrawlError

try:
    import numpy as np
except ImportError as missing:
    raise StatecrawlError(
        f"statecrawl qa needs {missing.name}: pip install 'statecrawl[qa]'"
    ) from None

PICTURE_WIDTH = 320  # pixels across, as the crawl's thumbnails (archive.thumbnails)
PIXEL_TOLERANCE = 40  # a pixel changed when a colour channel moved more than this (of 255)
MIN_PIXELS = 0.97  # the share of unchanged pixels from which two pictures match
MIN_TEXT = 0.95  # the text similarity from which two visible texts match
MAX_WORDS = 5000  # words of a text compared (difflib is quadratic at worst)
FONT_TYPES = (".woff", ".woff2", ".ttf", ".otf", ".eot")


def pixel_similarity(recorded: bytes, replayed: bytes) -> float:
    """The share of pixels alike in two pictures (encoded images), both scaled to the
    recorded one's proportions at :data:`PICTURE_WIDTH` pixels across."""
    before = _picture(recorded, None)
    after = _picture(replayed, before.size)
    moved = np.abs(np.asarray(before, np.int16) - np.asarray(after, np.int16)).max(axis=2)
    return 1.0 - float((moved > PIXEL_TOLERANCE).mean())


def text_similarity(recorded: str, replayed: str) -> float:
    """difflib's ratio of two texts' words (1.0 for two empty texts)."""
    before, after = recorded.split()[:MAX_WORDS], replayed.split()[:MAX_WORDS]
    if not before and not after:
        return 1.0
    return SequenceMatcher(None, before, after, autojunk=False).ratio()


def matches(pixels: float | None, text: float) -> bool:
    """Whether a replay looks like its recording (``pixels`` ``None``: no recorded picture,
    the text alone decides)."""
    return (pixels is None or pixels >= MIN_PIXELS) and text >= MIN_TEXT


def cause(misses: list[str], reproduced: bool, animated: bool) -> str:
    """Why a replay that does not match differs: a resource or a font the archive lacks, a
    page that moves by itself (two pictures of the replay differ), or timing (the replay
    reached another state, or differs with every request answered)."""
    if any(_path(miss).endswith(FONT_TYPES) for miss in misses):
        return "font"
    if misses:
        return "missing resource"
    if animated:
        return "animation"
    return "timing" if reproduced else "timing: the replay reached another state"


def miss_url(miss: str) -> str:
    """The URL a miss asked for (``404 GET http://h/a.css?v=1: why`` gives
    ``http://h/a.css?v=1``; a tunnel's ``403 CONNECT h:443: why``, ``h:443``)."""
    parts = miss.split(" ")
    return parts[2].rstrip(":") if len(parts) > 2 else ""


def _path(miss: str) -> str:
    """The path of a miss's URL, lower case (``http://h/a.css?v=1`` gives ``/a.css``)."""
    return urlsplit(miss_url(miss)).path.lower()


def _picture(data: bytes, size: tuple[int, int] | None) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(data)).convert("RGB")
    except (UnidentifiedImageError, OSError) as exc:
        raise ArchiveError(f"not a picture: {exc}") from None
    if size is None:
        width, height = image.size
        size = (PICTURE_WIDTH, max(1, round(height * PICTURE_WIDTH / max(width, 1))))
    return image.resize(size, Image.Resampling.BILINEAR).filter(ImageFilter.BoxBlur(1))
