"""Tables that remember which keys changed, so that a checkpoint writes only those."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class _Tracking(dict[K, V]):
    """Records in ``changed`` every key set, changed or deleted (see :class:`TrackedDict`)."""

    changed: set[K]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.changed = set()
        super().__init__(*args, **kwargs)

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.changed.add(key)

    def __delitem__(self, key: Any) -> None:  # (Counter's takes any object)
        super().__delitem__(key)
        self.changed.add(key)

    def setdefault(self, key: K, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: K, *default: Any) -> Any:
        self.changed.add(key)
        return super().pop(key, *default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value


class TrackedDict(_Tracking[K, V]):
    """A dict whose ``changed`` holds the keys set or deleted since it was last cleared."""

    def rekeyed(self, new: Callable[[K], K]) -> TrackedDict[K, V]:
        """This dict with every key ``k`` as ``new(k)`` (a later key wins a clash); what
        changed is this one's changes, the keys that moved and where they moved to."""
        moved: TrackedDict[K, V] = TrackedDict({new(k): v for k, v in self.items()})
        moved.changed = self.changed | {c for k in self if (n := new(k)) != k for c in (k, n)}
        return moved


class TrackedCounter(_Tracking[K, int], Counter[K]):
    """A Counter whose ``changed`` holds the keys counted since it was last cleared."""

    def update(self, *args: Any, **kwargs: Any) -> None:
        Counter.update(self, *args, **kwargs)  # counts through __setitem__


class TrackedSet(set[T]):
    """A set whose ``changed`` holds the elements added or discarded since it was last
    cleared (through :meth:`add` and :meth:`discard`)."""

    changed: set[T]

    def __init__(self, items: Iterable[T] = ()) -> None:
        super().__init__(items)
        self.changed = set()

    def add(self, item: T) -> None:
        super().add(item)
        self.changed.add(item)

    def discard(self, item: Any) -> None:  # (set's takes any object)
        super().discard(item)
        self.changed.add(item)

    def mapped(self, new: Callable[[T], T]) -> TrackedSet[T]:
        """This set with every element ``e`` as ``new(e)``; what changed is this one's
        changes, the elements that moved and where they moved to."""
        moved = TrackedSet(new(e) for e in self)
        moved.changed = self.changed | {c for e in self if (n := new(e)) != e for c in (e, n)}
        return moved
