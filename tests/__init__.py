"""statecrawl's tests (a package, so that no installed top-level ``tests`` package, such as
pywb's, shadows it)."""
