"""A frontier that is fair across sites: one frontier per site, served in rounds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .frontier import Strategy, Work


def _always(_site: str) -> bool:
    return True


class FairSites:
    """A strategy's order within each site, and turns across sites.

    Each site (``site(work)``) keeps its own frontier, made by ``make`` and ordered by it.
    Sites are served in rounds: in a round every site with work whose host may take a task
    now (``ready``) gets one task before any site gets a second, so a slow site, or one with
    a huge frontier, never keeps the others waiting. Within a round the site of the state
    the browser shows (``home(near[0])``) goes first, so the browser may go on from where it
    is and spare a reset; then the others, in the order they first had work. With one site
    this is the wrapped strategy itself.

    A closed site (one that reached its state limit) drops its work and takes no more.
    """

    def __init__(
        self,
        make: Callable[[], Strategy],
        site: Callable[[Work], str],
        home: Callable[[str], str | None],
    ) -> None:
        self.make = make
        self.name = make().name  # (an unknown strategy fails here, before the crawl starts)
        self.site = site
        self.home = home
        self.frontiers: dict[str, Strategy] = {}
        self.served: set[str] = set()  # sites that had their turn in this round
        self.closed: set[str] = set()
        self.sites_of: dict[str, set[str]] = {}  # state -> the sites holding some of its work

    def push(self, work: Work) -> None:
        site = self.site(work)
        if site in self.closed:
            return
        frontier = self.frontiers.get(site)
        if frontier is None:
            frontier = self.frontiers[site] = self.make()
        frontier.push(work)
        self.sites_of.setdefault(work.state, set()).add(site)

    def pop(self, near: Sequence[str] = (), ready: Callable[[str], bool] = _always) -> Work | None:
        """The next work of the site whose turn it is, among those ``ready`` says may take a
        task now; ``None`` when none has work or may. ``near``: the states the browser
        reaches without a load, its own first."""
        open_ = [site for site, frontier in self.frontiers.items() if len(frontier) and ready(site)]
        if not open_:
            return None
        due = [site for site in open_ if site not in self.served]
        if not due:  # every open site had its turn: a new round
            self.served.clear()
            due = open_
        home = self.home(near[0]) if near else None
        site = home if home in due else due[0]
        self.served.add(site)
        return self.frontiers[site].pop(near)

    def discard(self, state_id: str) -> int:
        sites = self.sites_of.pop(state_id, ())
        return sum(self.frontiers[s].discard(state_id) for s in sites if s in self.frontiers)

    def close(self, site: str) -> int:
        """Drop ``site``'s work and refuse any more; return how much was dropped."""
        self.closed.add(site)
        frontier = self.frontiers.pop(site, None)
        return 0 if frontier is None else len(frontier)

    def __len__(self) -> int:
        return sum(len(frontier) for frontier in self.frontiers.values())
