"""What collecting the candidate actions costs on a page with about 500 of them: a long list
(most rows below the fold) of buttons with listeners, links, checkboxes and opacity-0
checkboxes under styled labels, a scrolling panel and an SVG icon per row.

    python benchmarks/candidates.py [--runs N]

Each run takes one snapshot with the candidates and one without (``light``) of the settled
page; the line gives the medians and their difference, the candidates' own cost.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crawl_speed import serve

import statecrawl
from statecrawl.browser import Browser

ROW = """<li><label class="tick"><input type="checkbox" class="hidden-box"><span>item {i}</span>
</label><button class="go" data-n="{i}">open {i}</button> <a href="/item/{i}">item {i}</a>
<svg class="icon" width="12" height="12" data-n="{i}"><rect width="12" height="12"/></svg></li>"""
PAGE = """<!DOCTYPE html><html><head><title>Candidates</title><style>
.tick {{ position: relative; display: inline-block; }}
.hidden-box {{ position: absolute; inset: 0; opacity: 0; margin: 0; }}
#panel {{ height: 120px; overflow: auto; }}
</style></head><body><ul id="list">{rows}</ul><div id="panel">{inner}</div><p id="out"></p>
<script>
const out = document.getElementById('out');
for (const el of document.querySelectorAll('button.go, svg.icon, input.hidden-box'))
  el.addEventListener('click', (e) => {{ out.textContent = e.currentTarget.dataset.n || 'box'; }});
</script></body></html>"""


def page() -> bytes:
    """About 500 candidates: 120 rows of 4, and 20 buttons in a scrolling panel."""
    rows = "\n".join(ROW.format(i=i) for i in range(120))
    button = '<p><button class="go" data-n="p{i}">panel {i}</button></p>'
    inner = "".join(button.format(i=i) for i in range(20))
    return PAGE.format(rows=rows, inner=inner).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    body = page()
    server = serve(lambda path: body if path == "/" else None)
    url = f"http://127.0.0.1:{server.server_port}/"
    config = statecrawl.Config.from_mapping(
        {"start_urls": [url], "limits": {"max_actions_per_state": 1000}})
    full: list[float] = []
    light: list[float] = []
    with Browser(config) as browser:
        browser.start()
        count = len(browser.load(url).candidates)
        for _ in range(args.runs):
            for light_run, times in ((False, full), (True, light)):
                start = time.perf_counter()
                browser.settled(light=light_run)
                times.append((time.perf_counter() - start) * 1000)
    server.shutdown()
    with_, without = statistics.median(full), statistics.median(light)
    print(f"candidates {count}  snapshot {with_:.1f} ms  light snapshot {without:.1f} ms  "
          f"candidates' cost {with_ - without:.1f} ms (medians of {args.runs})")


if __name__ == "__main__":
    main()
