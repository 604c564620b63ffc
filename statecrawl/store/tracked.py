"""Tables that remember which keys changed, so that a checkpoint writes only those."""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class _Tracking:
    """Records in ``changed`` every key set, changed or deleted (see :class:`TrackedDict`)."""

    changed: set[Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.changed = set()
        super().__init__(*args, **kwargs)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)  # type: ignore[misc]
        self.changed.add(key)

    def __delitem__(self, key: Any) -> None:
        super().__delitem__(key)  # type: ignore[misc]
        self.changed.add(key)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:  # type: ignore[operator]
            self[key] = default
        return self[key]  # type: ignore[index]

    def pop(self, key: Any, *default: Any) -> Any:
        self.changed.add(key)
        return super().pop(key, *default)  # type: ignore[misc]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value


class TrackedDict(_Tracking, dict[K, V]):
    """A dict whose ``changed`` holds the keys set or deleted since it was last cleared."""


class TrackedCounter(_Tracking, Counter[K]):
    """A Counter whose ``changed`` holds the keys counted since it was last cleared."""

    def update(self, *args: Any, **kwargs: Any) -> None:
        Counter.update(self, *args, **kwargs)  # counts through __setitem__
