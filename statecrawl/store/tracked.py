"""Tables that remember which keys changed, so that a checkpoint writes only those."""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


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


class TrackedCounter(_Tracking[K, int], Counter[K]):
    """A Counter whose ``changed`` holds the keys counted since it was last cleared."""

    def update(self, *args: Any, **kwargs: Any) -> None:
        Counter.update(self, *args, **kwargs)  # counts through __setitem__
